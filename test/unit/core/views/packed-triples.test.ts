import { expect } from 'chai';
import type { Quad } from '@rdfjs/types';
import { QueryBank, iri, list } from '../../../../src/core/queries/query-bank.js';
import { termToString } from '../../../../src/core/rdf/terms.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import { SKOLEM_PREFIX } from '../../../../src/core/rdf/skolem.js';
import { unpackTriples } from '../../../../src/core/views/packed-triples.js';
import { awkwardNQuads } from '../../../helpers/awkward-triples.js';
import { firstOf, present } from '../../../helpers/present.js';

const queries = new QueryBank();
const G1 = 'urn:uuid:30000000-0000-4000-8000-000000000001';
const G2 = 'urn:uuid:30000000-0000-4000-8000-000000000002';
const G3 = 'urn:uuid:30000000-0000-4000-8000-000000000003';

const lines = (quads: Quad[]) =>
  quads.map((q) => `${termToString(q.subject)} ${termToString(q.predicate)} ${termToString(q.object)}`).sort();

describe('packed triples (views/graphs-packed.rq, a graph as one string)', () => {
  it('reads back from a real engine exactly the triples graphs-triples.rq answers row by row, and leaves a graph with a blank node unread', async () => {
    const store = new OxigraphStore();
    const nquads = awkwardNQuads(G1) + `<urn:x:s> <urn:p:party> _:b0 <${G2}> .\n_:b0 <urn:p:name> "n" <${G2}> .\n`;
    await (
      await store.commit({ ops: [{ op: 'insert', nquads }] })
    ).durable;
    const graphs = list([G1, G2, G3].map(iri));
    const rows = await store.select(queries.bind('views/graphs-triples', { graphs }));
    const packed = new Map(
      (await store.select(queries.bind('views/graphs-packed', { graphs }))).map((row) => [row.get('graph')!.value, row]),
    );
    const g1 = packed.get(G1)!;
    const unpacked = unpackTriples(g1.get('text')!.value);
    const expected = rows
      .filter((row) => row.get('graph')!.value === G1)
      .map((row) => `${termToString(row.get('s')!)} ${termToString(row.get('p')!)} ${termToString(row.get('o')!)}`)
      .sort();
    expect(expected).to.have.length(11);
    expect(lines(unpacked!)).to.deep.equal(expected);
    // STR cannot write a blank node: its triples come as "!" lines, and the node reads that graph row by row.
    const g2 = packed.get(G2)!;
    expect(g2.get('text')!.value.split('\n')).to.include('!');
    expect(unpackTriples(g2.get('text')!.value)).to.equal(undefined);
    // An empty graph has no row.
    expect(packed.has(G3)).to.equal(false);
  });

  it('reads a server that leaves non-ASCII unencoded (Virtuoso 7.2), and turns skolem IRIs back into blank nodes', () => {
    const text = [
      `${SKOLEM_PREFIX}b1 urn:p:name "é%22x%0A中"@en .`,
      `urn:x:s urn:p:party <${SKOLEM_PREFIX}b1 .`,
      'urn:x:s urn:p:n "7"^http://www.w3.org/2001/XMLSchema#integer .',
      'urn:x:s urn:p:e ""^http://www.w3.org/2001/XMLSchema#string .',
    ].join('\n');
    const [name, party, n, e] = firstOf(present(unpackTriples(text), 'the triples'), 4);
    expect(name.subject.termType).to.equal('BlankNode');
    expect(name.object).to.include({ termType: 'Literal', value: 'é"x\n中', language: 'en' });
    expect(party.object.termType).to.equal('BlankNode');
    expect(party.object.value).to.equal(name.subject.value);
    expect(n.object).to.include({ value: '7' });
    expect(n.object.termType === 'Literal' && n.object.datatype.value).to.equal('http://www.w3.org/2001/XMLSchema#integer');
    expect(termToString(e.object)).to.equal('""');
  });

  it('refuses a text with any line that is not a well-formed triple', () => {
    const line = 'urn:x:s urn:p:v "a%20b"@en .';
    expect(unpackTriples(`${line}\n${line}`)).to.have.length(2);
    expect(unpackTriples('')).to.deep.equal([]);
    for (const bad of [
      '!', // a triple the server could not write
      'urn:x:s urn:p:v "a%20',
      'urn:x:s urn:p:v <https://example.org/a',
      'urn:x:s urn:p:v "a"^http://www.w3.org/2001/XMLSch', // cut short
      'urn:x:s urn:p:v "a b"@en .', // an unencoded space
      'urn:x:s urn:p:v "a%2"@en .', // a broken escape
      'urn:x:s urn:p:v "a"@en',
      'urn:x:s urn:p:v "a"@ .',
      'urn:x:s urn:p:v "a"^ .',
      'urn:x:s urn:p:v "a" .',
      'urn:x:s urn:p:v < .',
      ' urn:p:v <urn:o .',
    ])
      expect(unpackTriples(`${line}\n${bad}`), bad).to.equal(undefined);
  });
});
