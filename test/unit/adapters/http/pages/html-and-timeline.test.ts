import { expect } from 'chai';
import { html, jsonBlock } from '../../../../../src/adapters/http/pages/html.js';
import { timeline, shortCode } from '../../../../../src/adapters/http/pages/console/timeline.js';
import { policyRequest } from '../../../../../src/adapters/http/pages/console/policies-page.js';
import { safeNext } from '../../../../../src/adapters/http/pages/console/page-auth.js';
import { nth } from '../../../../helpers/present.js';

describe('pages: escaping, timeline, form fields', () => {
  it('escapes every interpolated value, nested lists included, and trusts only html`` fragments', () => {
    const evil = '<script>alert("x")</script>&\'';
    const out = html`<p title="${evil}">${evil}${[evil, html`<b>${evil}</b>`]}${null}${undefined}${false}${0}</p>`.text;
    expect(out).to.not.include('<script>');
    expect(out).to.equal(`<p title="${esc(evil)}">${esc(evil)}${esc(evil)}<b>${esc(evil)}</b>0</p>`);
    expect(jsonBlock({ a: '</script><script>' }).text).to.not.include('</script>');
    expect(JSON.parse(jsonBlock({ a: '</script>' }).text)).to.deep.equal({ a: '</script>' });
  });

  it('orders events, document revisions and system events by date and names earlier revisions', () => {
    const entries = timeline({
      events: [
        {
          typeCode: 'svc:despatched',
          published: '2026-01-02T00:00:00Z',
          publisher: 'did:web:f',
          occurrenceLocation: { name: 'Felixstowe', UNLocode: 'GBFXT' },
        },
      ],
      documents: [
        {
          documentId: 'INV-1',
          documentRevision: 3,
          published: '2026-01-03T00:00:00Z',
          documentType: 'Commercial invoice',
          history: [{ documentRevision: 2 }, { documentRevision: 1 }],
        },
      ],
      systemEvents: [{ typeCode: 'CREATE', date: '2026-01-01T00:00:00Z', object: { type: 'Consignment' } }],
    });
    expect(entries.map((e) => e.title)).to.deep.equal(['System CREATE', 'Event despatched', 'Document INV-1 revision 3']);
    expect(nth(entries, 1).detail).to.equal('at Felixstowe GBFXT');
    expect(nth(entries, 2).detail).to.equal('Commercial invoice, earlier revisions 2, 1');
    expect(timeline({})).to.deep.equal([]);
    expect(shortCode('unece:DocumentCodeList#380')).to.equal('380');
  });

  it("turns the grant form into the API's policy body", () => {
    expect(policyRequest({ role: 'borderAgency', countries: ' GB, FR ,', locations: '', consignments: '' })).to.deep.equal({
      role: 'borderAgency',
      countries: ['GB', 'FR'],
    });
    expect(policyRequest({ role: 'locationOperator', locations: 'GBFXT NLRTM', consignments: 'urn:uuid:a' })).to.deep.equal({
      role: 'locationOperator',
      locations: ['GBFXT', 'NLRTM'],
      consignments: ['urn:uuid:a'],
    });
  });

  it('returns after login only to a path on this node', () => {
    const table: [unknown, string][] = [
      ['/console/policies?x=1', '/console/policies?x=1'],
      ['//evil.example', '/console'],
      ['/\\evil.example', '/console'],
      ['https://evil.example/', '/console'],
      ['javascript:alert(1)', '/console'],
      [undefined, '/console'],
      [['/a', '/b'], '/console'],
      ['/a b', '/console'],
    ];
    for (const [next, expected] of table) expect(safeNext(next), String(next)).to.equal(expected);
  });
});

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
