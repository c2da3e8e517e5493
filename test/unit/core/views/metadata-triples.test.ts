import { expect } from 'chai';
import type { Quad } from '@rdfjs/types';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import { GRAPHS, SVC } from '../../../../src/core/rdf/namespaces.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import { sparqlMetadataTriples } from '../../../../src/core/views/metadata-triples.js';
import { LogApartStore } from '../../../helpers/log-apart-store.js';

const M = GRAPHS.metadata;
const LOG = GRAPHS.activityLog;
const t = (s: string, p: string, o: string, g: string) => `<${s}> <${SVC}${p}> ${o} <${g}> .\n`;
const text = (quads: Iterable<Quad>) =>
  [...quads].map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.termType}:${q.object.value}`).sort();

describe('views: the triples naming a consignment', () => {
  for (const [kept, make] of [
    ['with the rest', () => new OxigraphStore(undefined, 'own')],
    ['apart', () => new LogApartStore()],
  ] as const)
    it(`are its records, with its system events when asked, and nothing of another consignment (activity log kept ${kept})`, async () => {
      const store = make();
      const nquads = [
        // A data graph's record, a document record and a revision of consignment 1; one record of 2.
        t('urn:g:1', 'consignment', '<urn:c:1>', M),
        t('urn:g:1', 'kind', `<${SVC}Event>`, M),
        t('urn:g:1', 'seq', '"4"^^<http://www.w3.org/2001/XMLSchema#integer>', M),
        t('urn:d:1', 'consignment', '<urn:c:1>', M),
        t('urn:d:1', 'documentIdentifier', '"INV-1"', M),
        t('urn:d:1', 'currentRevision', '<urn:r:1>', M),
        t('urn:r:1', 'consignment', '<urn:c:1>', M),
        t('urn:r:1', 'revisionOf', '<urn:d:1>', M),
        t('urn:r:1', 'blobSize', '"2048"^^<http://www.w3.org/2001/XMLSchema#integer>', M),
        t('urn:g:2', 'consignment', '<urn:c:2>', M),
        t('urn:g:2', 'kind', `<${SVC}Event>`, M),
        // The record of consignment 1 itself (it does not name itself) and its system events.
        t('urn:c:1', 'globalId', '"urn:g:c1"', M),
        t('urn:e:1', 'systemEventOf', '<urn:c:1>', LOG),
        t('urn:e:1', 'json', '"{\\"type\\":\\"SystemEvent\\"}"', LOG),
        t('urn:e:1', 'seq', '"5"^^<http://www.w3.org/2001/XMLSchema#integer>', LOG),
        t('urn:e:2', 'systemEventOf', '<urn:c:2>', LOG),
        t('urn:e:2', 'seq', '"6"^^<http://www.w3.org/2001/XMLSchema#integer>', LOG),
        // An activity-log entry naming consignment 1 with svc:consignment: not a record, not an event.
        t('urn:a:1', 'consignment', '<urn:c:1>', LOG),
        t('urn:a:1', 'entry', '"{}"', LOG),
      ].join('');
      await store.commit({ ops: [{ op: 'insert', nquads }] });
      const triples = sparqlMetadataTriples(store, new QueryBank());
      const records = [
        `urn:g:1 ${SVC}consignment NamedNode:urn:c:1`,
        `urn:g:1 ${SVC}kind NamedNode:${SVC}Event`,
        `urn:g:1 ${SVC}seq Literal:4`,
        `urn:d:1 ${SVC}consignment NamedNode:urn:c:1`,
        `urn:d:1 ${SVC}documentIdentifier Literal:INV-1`,
        `urn:d:1 ${SVC}currentRevision NamedNode:urn:r:1`,
        `urn:r:1 ${SVC}consignment NamedNode:urn:c:1`,
        `urn:r:1 ${SVC}revisionOf NamedNode:urn:d:1`,
        `urn:r:1 ${SVC}blobSize Literal:2048`,
      ];
      const events = [
        `urn:e:1 ${SVC}systemEventOf NamedNode:urn:c:1`,
        `urn:e:1 ${SVC}json Literal:{"type":"SystemEvent"}`,
        `urn:e:1 ${SVC}seq Literal:5`,
      ];
      expect(text(await triples('urn:c:1', false))).to.deep.equal(records.sort());
      expect(text(await triples('urn:c:1', true))).to.deep.equal([...records, ...events].sort());
      expect(text(await triples('urn:c:3', true))).to.deep.equal([]);
      await store.close();
    });
});
