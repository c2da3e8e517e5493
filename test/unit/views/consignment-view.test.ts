import { expect } from 'chai';
import { DataFactory } from 'n3';
import { SVC } from '../../../src/rdf/namespaces.js';
import type { Bindings } from '../../../src/store/quad-store.js';
import { graphRecords } from '../../../src/views/consignment-view.js';
import { graphInfo } from '../../../src/policy/visibility.js';

const { literal, namedNode } = DataFactory;
const row = (graph: string, p: string, o: ReturnType<typeof literal> | ReturnType<typeof namedNode>): Bindings =>
  new Map([['graph', namedNode(graph)], ['p', namedNode(SVC + p)], ['o', o]]) as Bindings;

describe('views: graph records from one row per property', () => {
  it('assembles each graph\'s record as the joined graph-record rows were, and leaves out a graph whose record lacks a field', () => {
    const full = (graph: string, seq: string) => [
      row(graph, 'kind', namedNode(`${SVC}Event`)), row(graph, 'publisher', namedNode('urn:org:a')),
      row(graph, 'published', literal('2026-11-23T10:00:00Z')), row(graph, 'seq', literal(seq)),
      row(graph, 'root', namedNode(`${graph}#root`)), row(graph, 'activity', namedNode('urn:act:1')),
    ];
    // Rows of two graphs interleaved, as a server may answer them; urn:g:3 has no seq.
    const g1 = full('urn:g:1', '4');
    const g2 = full('urn:g:2', '7');
    const rows = g1.flatMap((r, i) => [r, g2[i]]).concat(full('urn:g:3', '9').filter((r) => r.get('p')!.value !== `${SVC}seq`));
    const infos = graphRecords(rows).map(graphInfo);
    expect(infos).to.deep.equal([
      { graph: 'urn:g:1', kind: 'Event', publisher: 'urn:org:a', published: '2026-11-23T10:00:00Z', seq: 4, root: 'urn:g:1#root', activity: 'urn:act:1' },
      { graph: 'urn:g:2', kind: 'Event', publisher: 'urn:org:a', published: '2026-11-23T10:00:00Z', seq: 7, root: 'urn:g:2#root', activity: 'urn:act:1' },
    ]);
  });
});
