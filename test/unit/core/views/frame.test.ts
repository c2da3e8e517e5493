import { expect } from 'chai';
import oxigraph from 'oxigraph';
import { toQuads } from '../../../../src/core/activities/parse.js';
import { ActivityGraph } from '../../../../src/core/activities/activity-graph.js';
import { writeGraph } from '../../../../src/core/rdf/graph-writer.js';
import { expandedNodesFromNTriples } from '../../../../src/core/rdf/expanded-nodes.js';
import { frameNTriples, frameRoot, frameRootWithJsonLd } from '../../../../src/core/views/frame.js';
import { activity, consignment, document, event, target } from '../../../helpers/payloads.js';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
type Json = Record<string, unknown>;

/** Payloads that exercise every kind of value a view can hold, and the cases the fast path hands to jsonld.js. */
function payloads(): { name: string; type: 'Create' | 'Add'; object: Json }[] {
  const c = consignment();
  return [
    { name: 'a rich consignment', type: 'Create', object: c },
    {
      name: 'items, weights and quantities',
      type: 'Create',
      object: consignment({
        includedConsignment: [
          { type: 'Consignment', identifier: 'A' },
          { type: 'Consignment', identifier: 'B', summaryDescription: 'x' },
        ],
        weightUnitNetWeightMeasure: [
          { 'unece:WeightUnitMeasureTypeValue': '12.5', 'unece:WeightUnitMeasureTypeCode': 'KGM' },
          { 'unece:WeightUnitMeasureTypeValue': '3' },
        ],
        packageQuantity: { 'unece:QuantityTypeValue': '3', 'unece:QuantityTypeCode': 'C62' },
      }),
    },
    {
      name: 'escapes and non-ASCII text',
      type: 'Create',
      object: consignment({ summaryDescription: 'Quote " backslash \\ newline \n tab \t é ✓ 😀 <tag> \u0001' }),
    },
    { name: 'several values of one term', type: 'Create', object: consignment({ summaryDescription: ['one', 'two', 'three'] }) },
    {
      name: 'native and odd typed literals',
      type: 'Create',
      object: consignment({
        'unece:n': { '@value': '42', '@type': `${XSD}integer` },
        'unece:odd': { '@value': '012', '@type': `${XSD}integer` },
        'unece:b': { '@value': 'true', '@type': `${XSD}boolean` },
        'unece:d': { '@value': '4.2E0', '@type': `${XSD}double` },
        'unece:t': { '@value': '2026-11-20T10:00:00Z', '@type': `${XSD}dateTime` },
      }),
    },
    {
      name: 'a language-tagged string (jsonld.js path)',
      type: 'Create',
      object: consignment({ summaryDescription: { '@value': 'Maschinenteile', '@language': 'de' } }),
    },
    { name: 'an RDF list (jsonld.js path)', type: 'Create', object: consignment({ 'unece:listed': { '@list': ['a', 'b'] } }) },
    {
      name: 'an event',
      type: 'Add',
      object: event('svc:locationOperatorMatch', {
        occurrenceLocation: { type: 'LogisticsLocation', name: 'Rotterdam', UNLocode: 'NLRTM' },
      }),
    },
    { name: 'a document', type: 'Add', object: document('INV-1', { versionId: '2' }) },
    {
      name: 'pilot forms: locations named by id with fields, a GS1 value object, a boolean (issue 47)',
      type: 'Create',
      object: consignment({
        loadingLocation: { type: 'LogisticsLocation', id: 'unece:LOCODE#NLRTM', name: 'Rotterdam' },
        unloadingLocation: { id: 'unece:LOCODE#GBFXT', name: 'Felixstowe' },
        exporterParty: { type: 'TradeParty', identifier: { '@type': 'https://ref.gs1.org/voc/OrganizationID_Type-EORI', '@value': 'GB1' } },
        utilizedTransportEquipment: [{ specifiedTransportMeans: [{ identifier: 'T-1', driverAccompaniedIndicator: true }] }],
      }),
    },
  ];
}

describe('frameRoot and frameNTriples (read-view framing)', () => {
  const store = new oxigraph.Store();
  const cases: { name: string; graph: string; root: string }[] = [];
  const construct = (graph: string) => `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${graph}> { ?s ?p ?o } }`;

  before(async () => {
    const owner = consignment();
    for (const [i, p] of payloads().entries()) {
      const quads = await toQuads(activity(p.type, 'did:web:forwarder.example', p.object, p.type === 'Add' ? target(owner) : undefined));
      const graph = new ActivityGraph(quads);
      const name = `urn:uuid:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      store.load(writeGraph(graph.objectQuads(), name, graph.object, name, `w${i}`), { format: 'application/n-quads' });
      cases.push({ name: p.name, graph: name, root: name });
    }
    // A cycle of blank nodes, which no payload can send but a graph can hold.
    store.load(
      '<urn:uuid:c> <https://vocabulary.uncefact.org/name> "C" <urn:uuid:c> .\n<urn:uuid:c> <https://w3id.org/supply-chain-dataspace/ns#consignor> _:x <urn:uuid:c> .\n' +
        '_:x <https://vocabulary.uncefact.org/name> "X" <urn:uuid:c> .\n_:x <https://w3id.org/supply-chain-dataspace/ns#consignor> _:x <urn:uuid:c> .\n',
      { format: 'application/n-quads' },
    );
    cases.push({ name: 'a cycle of blank nodes (jsonld.js path)', graph: 'urn:uuid:c', root: 'urn:uuid:c' });
  });

  it('gives exactly what jsonld.fromRDF + jsonld.compact give, for quads and for N-Triples text', async () => {
    for (const c of cases) {
      const quads = store.query(construct(c.graph)) as never;
      const text = store.query(construct(c.graph), { results_format: 'application/n-triples' }) as string;
      const reference = await frameRootWithJsonLd(quads, c.root);
      if (!c.name.includes('jsonld.js path'))
        expect(expandedNodesFromNTriples(text), `${c.name} takes the fast path`).to.not.equal(undefined);
      expect(Object.keys(reference).length, c.name).to.be.greaterThan(1);
      expect(JSON.stringify(await frameRoot(quads, c.root)), c.name).to.equal(JSON.stringify(reference));
      expect(JSON.stringify(await frameNTriples(text, c.root)), c.name).to.equal(JSON.stringify(reference));
      // Twice: the second time every compaction decision comes from the memo.
      expect(JSON.stringify(await frameNTriples(text, c.root)), c.name).to.equal(JSON.stringify(reference));
    }
  });

  it('keeps what was sent: terms, codes, numbers and escaped text', async () => {
    const rich = cases.find((c) => c.name === 'escapes and non-ASCII text')!;
    const json = await frameNTriples(store.query(construct(rich.graph), { results_format: 'application/n-triples' }) as string, rich.root);
    expect(json.summaryDescription).to.equal('Quote " backslash \\ newline \n tab \t é ✓ 😀 <tag> \u0001');
    expect(json.type).to.equal('Consignment');
    expect((json.loadingBaseportLocation as Json).UNLocode).to.equal('GBFXT');
    const typed = cases.find((c) => c.name === 'native and odd typed literals')!;
    const values = await frameNTriples(
      store.query(construct(typed.graph), { results_format: 'application/n-triples' }) as string,
      typed.root,
    );
    expect(values['unece:n']).to.equal(42);
    expect(values['unece:b']).to.equal(true);
    const pilot = cases.find((c) => c.name.startsWith('pilot forms'))!;
    const sent = await frameNTriples(
      store.query(construct(pilot.graph), { results_format: 'application/n-triples' }) as string,
      pilot.root,
    );
    expect(sent.loadingLocation).to.deep.equal({ id: 'unece:LOCODE#NLRTM', type: 'LogisticsLocation', name: 'Rotterdam' });
    expect(sent.unloadingLocation).to.deep.equal({ id: 'unece:LOCODE#GBFXT', name: 'Felixstowe' });
    expect((sent.exporterParty as Json).identifier).to.deep.equal({
      '@type': 'https://ref.gs1.org/voc/OrganizationID_Type-EORI',
      '@value': 'GB1',
    });
    expect(JSON.stringify(sent)).to.contain('"driverAccompaniedIndicator":true');
  });

  it('reads N-Triples with tabs and extra blanks between terms (as Virtuoso writes them) on the fast path', async () => {
    for (const c of cases.filter((k) => !k.name.includes('jsonld.js path'))) {
      const text = store.query(construct(c.graph), { results_format: 'application/n-triples' }) as string;
      // The blanks between terms made a tab, or two spaces, line by line (subject and predicate hold no
      // blank, and every line ends with " ."), with CRLF line ends.
      const respace = (line: string, gap: string): string => {
        const first = line.indexOf(' ');
        const second = line.indexOf(' ', first + 1);
        return [line.slice(0, first), line.slice(first + 1, second), line.slice(second + 1, -2), '.'].join(gap);
      };
      const spaced = text
        .split('\n')
        .map((line, i) => (line.length > 0 ? respace(line, i % 2 === 0 ? '\t' : '  ') : line))
        .join('\r\n');
      expect(spaced).to.not.equal(text);
      expect(expandedNodesFromNTriples(spaced), c.name).to.not.equal(undefined);
      expect(JSON.stringify(await frameNTriples(spaced, c.root)), c.name).to.equal(JSON.stringify(await frameNTriples(text, c.root)));
    }
  });

  it('answers {} for a graph without the root, and leaves unreadable text to jsonld.js', async () => {
    expect(await frameNTriples('', 'urn:uuid:none')).to.deep.equal({});
    expect(expandedNodesFromNTriples('<urn:a> <urn:p> "x"@en .\n')).to.equal(undefined);
    expect(expandedNodesFromNTriples('not n-triples\n')).to.equal(undefined);
  });
});
