/**
 * The payload corpus: every file in test/fixtures/valid conforms, and every file in
 * test/fixtures/invalid breaks exactly the one rule it is named for (every Violation it yields is at
 * that path, from that shape). The table below is the corpus's answer key.
 */
import { expect } from 'chai';
import { toQuads } from '../../src/core/activities/parse.js';
import { createPayloadValidator } from '../../src/core/validation/index.js';
import type { PayloadValidator, ValidationReport } from '../../src/core/validation/index.js';
import { readFixtures } from '../helpers/fixtures.js';

interface Rule {
  path: string | null;
  sourceShape: string;
}

const rule = (path: string | null, sourceShape: string): Rule => ({ path, sourceShape: `dsh:${sourceShape}` });

/** File → the rule it breaks. */
const BROKEN_RULE: Record<string, Rule> = {
  'activity-published-not-a-date-time.json': rule('published', 'ActivityShape-published-updated-startTime-endTime'),
  'actor-missing-type.json': rule('actor.type', 'ActorShape-type'),
  'actor-wrong-type.json': rule('actor.type', 'ActorShape-type'),
  'actor-registeredId-missing.json': rule('actor.registeredId', 'ActorShape-registeredId'),
  'actor-registeredId-not-typed-as-did.json': rule('actor.registeredId', 'ActorShape-registeredId'),
  'actor-registeredId-not-did-web.json': rule('actor.registeredId', 'ActorShape-registeredIdDid'),
  'add-object-is-a-consignment.json': rule('type', 'AddShape-object-type'),
  'associated-document-code-unknown.json': rule('associatedDocument.documentTypeCode', 'DocumentCode'),
  'bare-consignment-missing-globalId.json': rule('globalId', 'PublishedConsignmentShape-globalId'),
  'bare-document-missing-versionId.json': rule('versionId', 'DocumentShape-versionId'),
  'bare-event-missing-typeCode.json': rule('typeCode', 'EventShape-typeCode'),
  'carrier-postal-address-wrong-type.json': rule('carrierParty.postalAddress.type', 'TradeAddressShape-type'),
  'consignee-country-code-from-wrong-list.json': rule('consignee.postalAddress.tradeAddressCountryId', 'CountryCode'),
  'consignment-blank-identifier.json': rule('identifier', 'ConsignmentShape-identifier'),
  'consignment-globalId-malformed-uuid.json': rule('globalId', 'ConsignmentShape-globalId'),
  'consignment-globalId-not-urn-uuid.json': rule('globalId', 'ConsignmentShape-globalId'),
  'consignment-item-goods-type-code-wrong-list.json': rule('includedConsignmentItem.goodsTypeCode', 'D23B-GoodsTypeCodeList'),
  'consignment-item-wrong-type.json': rule('includedConsignmentItem.type', 'ConsignmentItemShape-type'),
  'consignment-missing-globalId.json': rule('globalId', 'PublishedConsignmentShape-globalId'),
  'consignment-missing-identifier.json': rule('identifier', 'ConsignmentShape-identifier'),
  'consignment-two-consignors.json': rule('consignor', 'ConsignmentShape-consignor'),
  'consignment-two-identifiers.json': rule('identifier', 'ConsignmentShape-identifier'),
  'consignment-wrong-type.json': rule('type', 'ConsignmentShape-type'),
  'consignor-empty-name.json': rule('consignor.name', 'TradePartyShape-name'),
  'consignor-unknown-country-code.json': rule('consignor.postalAddress.tradeAddressCountryId', 'CountryCode'),
  'consignor-wrong-type.json': rule('consignor.type', 'TradePartyShape-type'),
  'containerization-indicator-not-boolean.json': rule('containerizationIndicator', 'D23B-Boolean'),
  'departure-event-date-time-not-iso.json': rule('mainCarriageTransportMovement.departureEvent.scheduledOccurrenceDateTime', 'D23B-DateTimeText'),
  'document-documentTypeCode-from-wrong-list.json': rule('documentTypeCode', 'DocumentCode'),
  'document-documentTypeCode-unknown.json': rule('documentTypeCode', 'DocumentCode'),
  'document-issueDateTime-not-a-date-time.json': rule('issueDateTime', 'D23B-DateTimeText'),
  'document-missing-documentTypeCode.json': rule('documentTypeCode', 'DocumentShape-documentTypeCode'),
  'document-missing-identifier.json': rule('identifier', 'DocumentShape-identifier'),
  'document-missing-issueDateTime.json': rule('issueDateTime', 'DocumentShape-issueDateTime'),
  'document-missing-type.json': rule('type', 'DocumentShape-type'),
  'document-missing-uRIId.json': rule('uRIId', 'DocumentShape-uRIId'),
  'document-missing-versionId.json': rule('versionId', 'DocumentShape-versionId'),
  'document-uRIId-not-a-url.json': rule('uRIId', 'DocumentShape-uRIId'),
  'event-missing-typeCode.json': rule('typeCode', 'EventShape-typeCode'),
  'event-occurrenceDateTime-month-13.json': rule('occurrenceDateTime', 'D23B-DateTimeText'),
  'event-occurrenceDateTime-not-a-date-time.json': rule('occurrenceDateTime', 'D23B-DateTimeText'),
  'event-occurrenceLocation-unlocode-bad-format.json': rule('occurrenceLocation.UNLocode', 'LogisticsLocationShape-UNLocode'),
  'event-occurrenceLocation-wrong-type.json': rule('occurrenceLocation.type', 'LogisticsLocationShape-type'),
  'event-two-typeCodes.json': rule('typeCode', 'EventShape-typeCode'),
  'included-consignment-bad-globalId.json': rule('includedConsignment.globalId', 'ConsignmentShape-globalId'),
  'included-consignment-missing-identifier.json': rule('includedConsignment.identifier', 'ConsignmentShape-identifier'),
  'loading-location-unlocode-bad-format.json': rule('loadingBaseportLocation.UNLocode', 'LogisticsLocationShape-UNLocode'),
  'loading-location-unlocode-too-long.json': rule('loadingBaseportLocation.UNLocode', 'LogisticsLocationShape-UNLocode'),
  'main-carriage-wrong-type.json': rule('mainCarriageTransportMovement.type', 'TransportMovementShape-type'),
  'origin-country-code-not-iso.json': rule('includedConsignmentItem.originCountry.countryId', 'CountryCode'),
  'origin-country-missing-countryId.json': rule('includedConsignmentItem.originCountry.countryId', 'CountryShape-countryId'),
  'payload-included-object-outside-the-tree.json': rule(null, 'PayloadStructureShape'),
  'payload-two-top-level-objects.json': rule(null, 'PayloadStructureShape'),
  'quantity-not-an-object.json': rule('consignmentItemQuantity', 'QuantityShape'),
  'quantity-unit-code-unknown.json': rule('packageQuantity.unece:QuantityTypeCode', 'QuantityUnitCode'),
  'quantity-value-missing.json': rule('packageQuantity.unece:QuantityTypeValue', 'QuantityShape-QuantityTypeValue'),
  'quantity-value-negative.json': rule('packageQuantity.unece:QuantityTypeValue', 'QuantityShape-QuantityTypeValue'),
  'quantity-value-not-numeric.json': rule('consignmentItemQuantity.unece:QuantityTypeValue', 'QuantityShape-QuantityTypeValue'),
  'shipped-onboard-date-time-not-a-date-time.json': rule('shippedOnboardDateTime', 'D23B-DateTime'),
  'summary-description-is-an-object.json': rule('summaryDescription', 'D23B-Text'),
  'target-globalId-not-urn-uuid.json': rule('target.globalId', 'TargetShape-globalId'),
  'target-missing-globalId.json': rule('target.globalId', 'TargetShape-globalId'),
  'target-missing-identifier.json': rule('target.identifier', 'TargetShape-identifier'),
  'target-wrong-type.json': rule('target.type', 'TargetShape-type'),
  'transport-equipment-category-code-unknown.json': rule('utilizedTransportEquipment.transportEquipmentCategoryCode', 'TransportEquipmentCategoryCode'),
  'transport-means-type-code-unknown.json': rule('preCarriageTransportMovement.usedTransportMeans.transportMeansTypeCode', 'TransportMeansTypeCode'),
  'transport-mode-code-from-wrong-list.json': rule('preCarriageTransportMovement.transportModeCode', 'TransportModeCode'),
  'transport-mode-code-unknown.json': rule('mainCarriageTransportMovement.transportModeCode', 'TransportModeCode'),
  'unloading-location-unlocode-unknown-country.json': rule('unloadingBaseportLocation.UNLocode', 'UNLocodeCountry'),
  'unloading-location-wrong-type.json': rule('unloadingBaseportLocation.type', 'LogisticsLocationShape-type'),
  'weight-unit-code-from-volume-list.json': rule('weightUnitNetWeightMeasure.unece:WeightUnitMeasureTypeCode', 'WeightUnitCode'),
  'weight-unit-code-unknown.json': rule('weightUnitGrossWeightMeasure.unece:WeightUnitMeasureTypeCode', 'WeightUnitCode'),
  'weight-value-not-numeric.json': rule('weightUnitNetWeightMeasure.unece:WeightUnitMeasureTypeValue', 'WeightMeasureShape-WeightUnitMeasureTypeValue'),
};

function violations(report: ValidationReport) {
  return report.results.filter((r) => r.severity === 'Violation');
}

describe('SHACL payload corpus (test/fixtures)', function () {
  this.timeout(20000);
  let validator: PayloadValidator;
  before(async () => {
    validator = await createPayloadValidator();
  });

  const valid = readFixtures('valid');
  const invalid = readFixtures('invalid');

  it('has at least 40 invalid payloads, each with its rule in the answer key, and rich valid ones', () => {
    expect(invalid.length).to.be.at.least(40);
    expect(invalid.map((f) => f.name).sort()).to.deep.equal(Object.keys(BROKEN_RULE).sort());
    expect(valid.length).to.be.at.least(10);
  });

  describe('valid payloads conform', () => {
    for (const fixture of valid) {
      it(fixture.name, async () => {
        const report = await validator.validate(await toQuads(fixture.json));
        expect(violations(report), JSON.stringify(report.results, null, 2)).to.deep.equal([]);
        expect(report.conforms).to.equal(true);
      });
    }
  });

  describe('each invalid payload breaks exactly the rule it is named for', () => {
    for (const fixture of invalid) {
      it(fixture.name, async () => {
        const expected = BROKEN_RULE[fixture.name];
        expect(expected, `no rule listed for ${fixture.name}`).to.not.equal(undefined);
        const report = await validator.validate(await toQuads(fixture.json));
        expect(report.conforms).to.equal(false);
        const found = violations(report).map((r) => ({ path: r.path, sourceShape: r.sourceShape }));
        expect(found.length, JSON.stringify(report.results, null, 2)).to.be.at.least(1);
        for (const one of found) expect(one, JSON.stringify(report.results, null, 2)).to.deep.equal(expected);
      });
    }
  });
});
