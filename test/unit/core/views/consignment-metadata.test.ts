import { expect } from 'chai';
import { DataFactory } from 'n3';
import { RDF_TYPE, SVC } from '../../../../src/core/rdf/namespaces.js';
import { consignmentMetadata } from '../../../../src/core/views/consignment-metadata.js';
import { nth } from '../../../helpers/present.js';

const { literal, namedNode, quad } = DataFactory;
type Value = ReturnType<typeof literal> | ReturnType<typeof namedNode>;
const row = (s: string, p: string, o: Value) => quad(namedNode(s), namedNode(p.includes(':') ? p : SVC + p), o);
const graphRows = (graph: string, seq: string, kind = 'Event') => [
  row(graph, 'consignment', namedNode('urn:c:1')),
  row(graph, 'kind', namedNode(`${SVC}${kind}`)),
  row(graph, 'publisher', namedNode('urn:org:a')),
  row(graph, 'published', literal('2026-11-23T10:00:00Z')),
  row(graph, 'seq', literal(seq)),
  row(graph, 'root', namedNode(`${graph}#root`)),
  row(graph, 'activity', namedNode('urn:act:1')),
];

describe("views: a consignment's metadata from the triples that name it", () => {
  it("assembles each graph's record whatever the order of the triples, leaves out a graph whose record lacks a field, and tells system events apart", () => {
    const g1 = graphRows('urn:g:1', '4');
    const g2 = graphRows('urn:g:2', '7');
    // Triples of two graphs interleaved, as a server may answer them; urn:g:3 has no seq.
    const rows = g1
      .flatMap((r, i) => [r, nth(g2, i)])
      .concat(graphRows('urn:g:3', '9').filter((r) => r.predicate.value !== `${SVC}seq`))
      .concat([
        row('urn:e:1', 'systemEventOf', namedNode('urn:c:1')),
        row('urn:e:1', 'publisher', namedNode('urn:org:a')),
        row('urn:e:1', 'json', literal('{"type":"SystemEvent"}')),
        row('urn:e:1', 'seq', literal('5')),
      ]);
    const { graphs, documents, systemEvents } = consignmentMetadata(rows);
    expect(graphs).to.deep.equal([
      {
        graph: 'urn:g:1',
        kind: 'Event',
        publisher: 'urn:org:a',
        published: '2026-11-23T10:00:00Z',
        seq: 4,
        root: 'urn:g:1#root',
        activity: 'urn:act:1',
      },
      {
        graph: 'urn:g:2',
        kind: 'Event',
        publisher: 'urn:org:a',
        published: '2026-11-23T10:00:00Z',
        seq: 7,
        root: 'urn:g:2#root',
        activity: 'urn:act:1',
      },
    ]);
    expect(documents).to.deep.equal([]);
    expect(systemEvents).to.deep.equal([{ seq: 5, publisher: 'urn:org:a', json: '{"type":"SystemEvent"}' }]);
  });

  it("gives documents in registration order with their revisions by number and each revision's file", () => {
    const documentRecord = (doc: string, identifier: string, seq: string, current: string) => [
      row(doc, RDF_TYPE, namedNode(`${SVC}DocumentRecord`)),
      row(doc, 'consignment', namedNode('urn:c:1')),
      row(doc, 'documentIdentifier', literal(identifier)),
      row(doc, 'publisher', namedNode('urn:org:b')),
      row(doc, 'seq', literal(seq)),
      row(doc, 'currentRevision', namedNode(current)),
    ];
    const revision = (graph: string, doc: string, n: string, seq: string, file: ReturnType<typeof row>[]) => [
      ...graphRows(graph, seq, 'DocumentRevision'),
      row(graph, 'revisionOf', namedNode(doc)),
      row(graph, 'revision', literal(n)),
      ...file,
    ];
    const rows = [
      ...revision('urn:r:2', 'urn:d:1', '2', '12', [row('urn:r:2', 'fileError', literal('refused'))]),
      ...documentRecord('urn:d:2', 'INV-2', '11', 'urn:r:3'),
      ...revision('urn:r:3', 'urn:d:2', '1', '11', []),
      ...documentRecord('urn:d:1', 'INV-1', '10', 'urn:r:2'),
      ...revision('urn:r:1', 'urn:d:1', '1', '10', [
        row('urn:r:1', 'encodingFormat', literal('application/pdf')),
        row('urn:r:1', 'fileExtension', literal('pdf')),
        row('urn:r:1', 'blobSha256', literal('ab12')),
        row('urn:r:1', 'blobSize', literal('2048')),
      ]),
    ];
    const { graphs, documents } = consignmentMetadata(rows);
    expect(graphs.map((g) => g.graph)).to.have.members(['urn:r:1', 'urn:r:2', 'urn:r:3']);
    expect(documents).to.deep.equal([
      {
        document: 'urn:d:1',
        identifier: 'INV-1',
        publisher: 'urn:org:b',
        current: 'urn:r:2',
        revisions: [
          {
            graph: 'urn:r:1',
            revision: 1,
            published: '2026-11-23T10:00:00Z',
            file: { encodingFormat: 'application/pdf', fileExtension: 'pdf', sha256: 'ab12', size: 2048, error: undefined },
          },
          {
            graph: 'urn:r:2',
            revision: 2,
            published: '2026-11-23T10:00:00Z',
            file: { encodingFormat: undefined, fileExtension: undefined, sha256: undefined, size: undefined, error: 'refused' },
          },
        ],
      },
      {
        document: 'urn:d:2',
        identifier: 'INV-2',
        publisher: 'urn:org:b',
        current: 'urn:r:3',
        revisions: [
          {
            graph: 'urn:r:3',
            revision: 1,
            published: '2026-11-23T10:00:00Z',
            file: { encodingFormat: undefined, fileExtension: undefined, sha256: undefined, size: undefined, error: undefined },
          },
        ],
      },
    ]);
  });
});
