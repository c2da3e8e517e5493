import { expect } from 'chai';
import n3 from 'n3';
import type { Quad } from '@rdfjs/types';
import { toQuads } from '../../../../src/core/activities/parse.js';
import { createPayloadValidator } from '../../../../src/core/validation/index.js';
import type { PayloadValidator, ValidationReport } from '../../../../src/core/validation/index.js';
import { readFixture } from '../../../helpers/fixtures.js';

const SH = 'http://www.w3.org/ns/shacl#';
const D23B = 'https://vocabulary.uncefact.org/unece-context-D23B.jsonld';

type Json = Record<string, any>;
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('createPayloadValidator', function () {
  this.timeout(20000);
  let validator: PayloadValidator;
  before(async () => {
    validator = await createPayloadValidator();
  });

  const check = async (json: unknown): Promise<ValidationReport> => validator.validate(await toQuads(json));

  describe('results a person can read', () => {
    it('reports every violation with readable focus node, path, value, shape and message', async () => {
      const payload = clone(readFixture('valid', 'create-rich-consignment.json')) as Json;
      payload.object.consignor.postalAddress.tradeAddressCountryId = 'unece:CountryId#XX';
      payload.object.includedConsignment[1].globalId = 'HBL-2';
      payload.object.loadingBaseportLocation.UNLocode = 'GBIMMX';
      const report = await check(payload);
      expect(report.conforms).to.equal(false);
      const byPath = Object.fromEntries(report.results.map((r) => [r.path, r]));
      expect(Object.keys(byPath).sort()).to.deep.equal([
        'consignor.postalAddress.tradeAddressCountryId',
        'includedConsignment.globalId',
        'loadingBaseportLocation.UNLocode',
      ]);
      expect(byPath['consignor.postalAddress.tradeAddressCountryId']).to.deep.include({
        focusNode: 'consignor.postalAddress',
        severity: 'Violation',
        sourceShape: 'dsh:CountryCode',
        value: 'unece:CountryId#XX',
      });
      expect(byPath['consignor.postalAddress.tradeAddressCountryId']!.message).to.match(/^unece:CountryId#XX is not a country code/);
      // One of several included consignments: named by its identifier.
      expect(byPath['includedConsignment.globalId']!.focusNode).to.equal('includedConsignment[HBL-NSF-0002]');
    });

    it('places a rule on the activity itself, its actor and its target with the envelope prefix', async () => {
      const payload = clone(readFixture('valid', 'add-event-despatched.json')) as Json;
      payload.published = 'soon';
      payload.actor.registeredId['@value'] = 'did:example:123';
      delete payload.target.identifier;
      const report = await check(payload);
      expect(report.results.map((r) => [r.focusNode, r.path]).sort()).to.deep.equal([
        ['activity', 'published'],
        ['actor', 'actor.registeredId'],
        ['target', 'target.identifier'],
      ]);
    });

    it('reads paths from the root of a bare object', async () => {
      const bare = clone(readFixture('valid', 'bare-consignment.json')) as Json;
      bare.consignee.postalAddress.tradeAddressCountryId = 'unece:CountryId#UK';
      const report = await check(bare);
      expect(report.results.map((r) => [r.focusNode, r.path])).to.deep.equal([
        ['consignee.postalAddress', 'consignee.postalAddress.tradeAddressCountryId'],
      ]);
    });

    it('reports the same bad code once per place it appears', async () => {
      const payload = clone(readFixture('valid', 'create-rich-consignment.json')) as Json;
      payload.object.exportCountry.countryId = 'unece:CountryId#UK';
      payload.object.includedConsignmentItem[0].originCountry.countryId = 'unece:CountryId#UK';
      const report = await check(payload);
      expect(report.results.map((r) => r.path).sort()).to.deep.equal([
        'exportCountry.countryId',
        'includedConsignmentItem.originCountry.countryId',
      ]);
    });
  });

  describe('what the interface admits', () => {
    it('accepts a document code as a string (D23B release) or as an IRI (later contexts)', async () => {
      expect((await check(readFixture('valid', 'add-document-commercial-invoice.json'))).conforms).to.equal(true);
      expect((await check(readFixture('valid', 'add-document-code-as-iri.json'))).conforms).to.equal(true);
    });

    it('tolerates JSON numbers for quantities and bare unit codes', async () => {
      const report = await check(readFixture('valid', 'update-consignment-numbers-and-bare-units.json'));
      expect(report.results).to.deep.equal([]);
    });

    it('admits an unlisted event code with a Warning that does not block', async () => {
      const report = await check(readFixture('valid', 'add-event-unlisted-typecode.json'));
      expect(report.conforms).to.equal(true);
      expect(report.results).to.have.length(1);
      expect(report.results[0]).to.deep.include({ severity: 'Warning', path: 'typeCode', value: 'svc:temperatureAlarm' });
    });

    it('validates an untyped object of an Add as an event, or as a document when it has document fields', async () => {
      const payload = clone(readFixture('valid', 'add-event-carrier-booking-without-type.json')) as Json;
      expect((await check(payload)).conforms).to.equal(true);
      delete payload.object.typeCode;
      expect((await check(payload)).results.map((r) => r.sourceShape)).to.deep.equal(['dsh:EventShape-typeCode']);
      payload.object = { '@context': D23B, documentTypeCode: 'unece:DocumentCodeList#380' };
      const paths = (await check(payload)).results.map((r) => r.path).sort();
      expect(paths).to.deep.equal(['identifier', 'issueDateTime', 'type', 'uRIId', 'versionId']);
    });

    it('needs a globalId on the published consignment only, not on included ones', async () => {
      const payload = clone(readFixture('valid', 'create-consignment-spec-fields.json')) as Json;
      for (const included of payload.object.includedConsignment) expect(included.globalId).to.equal(undefined);
      expect((await check(payload)).conforms).to.equal(true);
    });
  });

  describe('the payload as a whole', () => {
    it('refuses an empty payload, several activities, and quads in named graphs', async () => {
      const empty = await validator.validate([]);
      expect(empty.conforms).to.equal(false);
      expect(empty.results[0]).to.deep.include({ sourceShape: 'dsh:PayloadStructureShape', path: null });

      const one = await toQuads(readFixture('valid', 'create-minimal-consignment.json'));
      const { namedNode, quad, blankNode } = n3.DataFactory;
      const other = one.map((q) =>
        quad(
          (q.subject.termType === 'BlankNode' ? blankNode(`x${q.subject.value}`) : q.subject) as Quad['subject'],
          q.predicate,
          (q.object.termType === 'BlankNode' ? blankNode(`x${q.object.value}`) : q.object) as Quad['object'],
        ),
      );
      const two = await validator.validate([...one, ...other] as Quad[]);
      expect(two.results.map((r) => r.message).join(' ')).to.match(/2 activities/);

      const named = await validator.validate([
        ...one,
        quad(blankNode('g1'), namedNode('http://example.org/p'), blankNode('g2'), namedNode('http://example.org/graph')),
      ] as Quad[]);
      expect(named.conforms).to.equal(false);
      expect(named.results.map((r) => r.message).join(' ')).to.match(/named graph/);
    });

    it('terminates on objects that refer to each other in a cycle', async () => {
      const payload = clone(readFixture('valid', 'create-minimal-consignment.json')) as Json;
      payload.object['@id'] = 'urn:uuid:9d2c1b7e-54a3-4e61-8f0d-3a7b6c5e4d21';
      payload.object.includedConsignment = [
        { '@id': 'urn:uuid:9d2c1b7e-54a3-4e61-8f0d-3a7b6c5e4d21' },
        { identifier: 'C-2', includedConsignment: { '@id': 'urn:uuid:9d2c1b7e-54a3-4e61-8f0d-3a7b6c5e4d21' } },
      ];
      const report = await check(payload);
      expect(report.conforms).to.equal(true);
    });
  });

  describe('the sh:ValidationReport', () => {
    it('carries one sh:ValidationResult per result, with SHACL terms and the readable path', async () => {
      const payload = clone(readFixture('valid', 'add-document-commercial-invoice.json')) as Json;
      delete payload.object.versionId;
      payload.object.uRIId = 'INV.pdf';
      const report = await check(payload);
      const quads = report.reportQuads();
      expect(report.reportQuads()).to.equal(quads);
      const store = new n3.Store(quads);
      const of = (p: string, o?: string) => store.getQuads(null, p, o ?? null, null);
      expect(of(`${SH}conforms`)[0]!.object.value).to.equal('false');
      expect(of('http://www.w3.org/1999/02/22-rdf-syntax-ns#type', `${SH}ValidationResult`)).to.have.length(report.results.length);
      expect(
        of(`${SH}sourceConstraintComponent`)
          .map((q) => q.object.value)
          .sort(),
      ).to.deep.equal([`${SH}MinCountConstraintComponent`, `${SH}PatternConstraintComponent`]);
      expect(
        of(`${SH}resultPath`)
          .map((q) => q.object.value)
          .sort(),
      ).to.deep.equal(['https://vocabulary.uncefact.org/uRIId', 'https://vocabulary.uncefact.org/versionId']);
      expect(
        of('https://w3id.org/supply-chain-dataspace/shapes#readablePath')
          .map((q) => q.object.value)
          .sort(),
      ).to.deep.equal(['uRIId', 'versionId']);
      expect(of(`${SH}value`).map((q) => q.object.value)).to.deep.equal(['INV.pdf']);
    });

    it('says sh:conforms true for a payload with only warnings', async () => {
      const report = await check(readFixture('valid', 'add-event-unlisted-typecode.json'));
      const conforms = report.reportQuads().find((q) => q.predicate.value === `${SH}conforms`);
      expect(conforms!.object.value).to.equal('true');
    });
  });
});
