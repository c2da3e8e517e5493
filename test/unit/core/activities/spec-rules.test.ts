import { expect } from 'chai';
import { checkContextEntries } from '../../../../src/core/activities/context-rules.js';
import { checkStringFields } from '../../../../src/core/activities/field-types.js';
import { normaliseForms } from '../../../../src/core/activities/payload-forms.js';
import { matchUpdate } from '../../../../src/core/activities/update-match.js';
import type { ConsignmentRecord } from '../../../../src/core/catalog/records.js';
import { POSITION, withPositions } from '../../../../src/core/activities/item-order.js';
import { restoreArrays } from '../../../../src/core/views/array-shape.js';

const D23B = 'https://vocabulary.uncefact.org/unece-context-D23B.jsonld';
const record = (owner: string, globalId: string, identifier: string): ConsignmentRecord => ({
  consignment: `urn:c:${globalId}`,
  owner,
  globalId,
  identifier,
  stateGraph: `urn:g:${globalId}`,
  created: '',
  status: 'published',
  seq: 1,
});

describe('matchUpdate (spec 4.2: matched by globalId or identifier)', () => {
  const mine = record('did:web:a', 'urn:uuid:1', 'R1');
  const mine2 = record('did:web:a', 'urn:uuid:2', 'R2');
  const theirs = record('did:web:b', 'urn:uuid:3', 'R1');
  const all = [mine, mine2, theirs];
  const lookup = {
    byGlobalId: async (g: string) => all.find((r) => r.globalId === g),
    byIdentifier: async (o: string, i: string) => all.find((r) => r.owner === o && r.identifier === i),
  };
  const rows: [string, string, string, string][] = [
    ['urn:uuid:1', 'R1', 'ok urn:uuid:1', 'globalId and identifier agree'],
    ['urn:uuid:1', 'NEW', 'ok urn:uuid:1', 'matched by globalId, identifier renamed'],
    ['urn:uuid:1', 'R2', 'Conflict', 'the two name different consignments'],
    // Another publisher's globalId counts as one that matches nothing (issue 33).
    ['urn:uuid:3', 'R1', 'ok urn:uuid:1 warned', "another publisher's globalId, own identifier"],
    ['urn:uuid:3', 'NONE', 'NotFound', "another publisher's globalId, no identifier of the sender"],
    ['urn:uuid:9', 'R2', 'ok urn:uuid:2 warned', 'globalId names nothing, identifier matches'],
    ['urn:uuid:9', 'NONE', 'NotFound', 'neither matches'],
  ];
  for (const [globalId, identifier, expected, why] of rows) {
    it(`${why}: ${expected}`, async () => {
      const m = await matchUpdate(lookup, 'did:web:a', globalId, identifier);
      const got = m.ok ? `ok ${m.record.globalId}${m.warning ? ' warned' : ''}` : m.error.name;
      expect(got).to.equal(expected);
    });
  }
});

describe('context entries, string fields and countryId forms', () => {
  it('accepts bundled URLs and refuses everything else, naming where', () => {
    expect(() => checkContextEntries({ '@context': [D23B], a: { '@context': D23B } })).to.not.throw();
    for (const [json, at] of [
      [{ '@context': [D23B, { x: 'urn:x' }] }, '@context[1]'],
      [{ o: { '@context': { '@vocab': 'urn:v:' } } }, 'o.@context'],
      [{ '@context': null }, '@context'],
      [{ '@context': 'https://example.org/c.jsonld' }, '@context'],
    ] as const) {
      expect(() => checkContextEntries(json))
        .to.throw()
        .with.property('properties')
        .that.deep.include({ at });
    }
  });

  it('refuses numbers and booleans as identifier or globalId, also in value objects and arrays', () => {
    expect(() => checkStringFields({ identifier: 'x', globalId: { '@value': 'y' } })).to.not.throw();
    expect(() => checkStringFields({ a: [{ identifier: 1 }] })).to.throw(/a\[0\]\.identifier is 1/);
    expect(() => checkStringFields({ globalId: { '@value': false } })).to.throw(/globalId is false/);
  });

  it('normalises bare and expanded codes of every code field, warning on the bare ones, and leaves the input alone', () => {
    const input = {
      o: { countryId: 'PL', tradeAddressCountryId: 'PL', transportModeCode: 'https://vocabulary.uncefact.org/TransportModeCodeList#3' },
      p: [{ countryId: 'unece:CountryId#DE' }, { countryId: 'pl' }, { countryId: 'XX' }, { documentTypeCode: '380' }],
    };
    const { json, warnings } = normaliseForms(input);
    expect(json).to.deep.equal({
      o: {
        countryId: 'unece:CountryId#PL',
        tradeAddressCountryId: 'unece:CountryId#PL',
        transportModeCode: 'unece:TransportModeCodeList#3',
      },
      p: [
        { countryId: 'unece:CountryId#DE' },
        { countryId: 'pl' },
        { countryId: 'XX' },
        { documentTypeCode: 'unece:DocumentCodeList#380' },
      ],
    });
    expect(warnings.map((w) => w.path)).to.deep.equal(['o.countryId', 'o.tradeAddressCountryId', 'p[3].documentTypeCode']);
    expect(input.o.countryId).to.equal('PL');
  });
});

describe('array positions', () => {
  it('marks node items of arrays in the object, not literals, named nodes or the envelope', () => {
    const out = withPositions({
      actor: { a: [{ x: 1 }] },
      object: { items: [{ n: 'a' }, { n: 'b' }], tags: ['t'], named: [{ '@id': 'urn:x' }], 'svc:position': 9 },
    }) as any;
    expect(out.object.items.map((i: any) => i[POSITION])).to.deep.equal([0, 1]);
    expect(out.object.tags).to.deep.equal(['t']);
    expect(out.object.named[0]).to.not.have.property(POSITION);
    expect(out.object).to.not.have.property('svc:position');
    expect(out.actor.a[0]).to.not.have.property(POSITION);
  });

  it("restores arrays from positions, sorted, and the spec's array fields always", () => {
    const view: any = {
      single: { 'svc:position': 0, n: 'only' },
      many: [
        { 'svc:position': { '@value': '2' }, n: 'c' },
        { 'svc:position': 0, n: 'a' },
        { 'svc:position': 1, n: 'b' },
      ],
      object: { n: 'x' },
      includedConsignmentItem: { n: 'i' },
    };
    restoreArrays(view);
    expect(view).to.deep.equal({
      single: [{ n: 'only' }],
      many: [{ n: 'a' }, { n: 'b' }, { n: 'c' }],
      object: { n: 'x' },
      includedConsignmentItem: [{ n: 'i' }],
    });
  });
});
