import { expect } from 'chai';
import { canonicalGlobalId, identifierProblem, isGlobalIdForm, isNodeIri } from '../../../../src/core/catalog/identities.js';

const ID = 'urn:uuid:6f1c1f5e-5a8e-4a49-9f57-0d6b8ee1c001';
const UPPER = 'urn:uuid:6F1C1F5E-5A8E-4A49-9F57-0D6B8EE1C001';

describe("identities: the globalId form, its canonical form and the node's spaces", () => {
  it('reads a globalId in any case and keeps it in lower case', () => {
    for (const [value, form, canonical] of [
      [ID, true, ID],
      [UPPER, true, ID],
      [UPPER.replace('urn:uuid', 'URN:UUID'), true, ID],
      ['6PLB12345678INV2026001', false, '6PLB12345678INV2026001'],
      ['urn:ucr:24PLP051219453I002610799053311', false, 'urn:ucr:24PLP051219453I002610799053311'],
      [`${ID}x`, false, `${ID}x`],
      ['REF-1', false, 'REF-1'],
    ] as const) {
      expect(isGlobalIdForm(value), value).to.equal(form);
      expect(canonicalGlobalId(value), value).to.equal(canonical);
    }
  });

  it("names the node's own spaces, in any case", () => {
    for (const [iri, own] of [
      [ID, true],
      ['URN:UUID:x', true],
      ['urn:dataspace:consignment:1', true],
      ['urn:dataspace:bnode:b0', true],
      ['unece:LOCODE#NLRTM', false],
      ['urn:ucr:1', false],
      ['https://vocabulary.uncefact.org/CountryId#GB', false],
      ['did:web:a.example', false],
    ] as const) {
      expect(isNodeIri(iri), iri).to.equal(own);
    }
  });

  it("lets an identifier in globalId form be only the consignment's own globalId", () => {
    expect(identifierProblem('REF-1', ID)).to.equal(undefined);
    expect(identifierProblem(ID, ID)).to.equal(undefined);
    expect(identifierProblem(UPPER, ID)).to.equal(undefined);
    expect(identifierProblem('urn:uuid:00000000-0000-4000-8000-000000000001', ID)).to.match(/must be the consignment's own globalId/);
  });
});
