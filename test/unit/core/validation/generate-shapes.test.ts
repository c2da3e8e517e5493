import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { shapesDir } from '../../../../src/core/project-paths.js';
import { GENERATED_SHAPE_FILES } from '../../../../scripts/generate-shapes.js';

describe('generated shapes (shapes/codelists.ttl, shapes/d23b-ranges.ttl)', () => {
  for (const [file, render] of Object.entries(GENERATED_SHAPE_FILES)) {
    it(`shapes/${file} is what the generator makes from the bundled data (run npm run generate-shapes if not)`, () => {
      expect(readFileSync(join(shapesDir, file), 'utf8') === render()).to.equal(true);
    });
  }

  it('bundles every code of the D23B lists the interface names', () => {
    const codelists = readFileSync(join(shapesDir, 'codelists.ttl'), 'utf8');
    for (const needle of [
      'country:GB  #',
      'document:380 "unece:DocumentCodeList#380"',
      'mode:3 "unece:TransportModeCodeList#3"',
      'means:3103  #',
      'equipment:CN  #',
      'weight:KGM "unece:WeightUnitMeasureCode#KGM" "KGM"',
      'unit:C62 "unece:UnitMeasureCode#C62" "C62"',
      'package:CT "unece:PackageTypeCodeList#CT" "CT" "XCT"',
    ]) {
      expect(codelists).to.include(needle);
    }
  });

  it('targets every D23B field by its range', () => {
    const ranges = readFileSync(join(shapesDir, 'd23b-ranges.ttl'), 'utf8');
    expect(ranges).to.match(/dsh:TradePartyShape sh:targetObjectsOf[^.]*unece:carrierParty/);
    expect(ranges).to.match(/dsh:TradePartyShape sh:targetObjectsOf[^.]*svc:consignor/);
    expect(ranges).to.match(/dsh:CountryCode sh:targetObjectsOf[^.]*unece:tradeAddressCountryId/);
    expect(ranges).to.match(/dsh:DocumentCode sh:targetObjectsOf[^.]*unece:documentTypeCode/);
    expect(ranges).to.match(/dsh:D23B-DateTimeText[^.]*unece:occurrenceDateTime/);
    expect(ranges).to.match(/dsh:D23B-GoodsTypeCodeList[^.]*unece:goodsTypeCode/);
  });
});
