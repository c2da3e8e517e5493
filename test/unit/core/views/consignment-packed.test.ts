import { expect } from 'chai';
import type { Principal } from '../../../../src/core/auth/principal.js';
import { ChangeClock } from '../../../../src/core/policy/change-clock.js';
import type { VisibleConsignment } from '../../../../src/core/policy/visible-records.js';
import { QueryBank, iri } from '../../../../src/core/queries/query-bank.js';
import { termToString } from '../../../../src/core/rdf/terms.js';
import { DelegatingStore } from '../../../../src/core/store/delegating-store.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import type { Bindings, QueryDataset } from '../../../../src/core/ports/quad-store.js';
import type { Quad } from '@rdfjs/types';
import { ConsignmentView } from '../../../../src/core/views/consignment-view.js';
import { readPackedConsignment } from '../../../../src/core/views/consignment-packed.js';
import { DocumentsView } from '../../../../src/core/views/documents-view.js';
import { GraphJson } from '../../../../src/core/views/graph-json.js';

const queries = new QueryBank();
const SVC = 'https://w3id.org/supply-chain-dataspace/ns#';
const UNECE = 'https://vocabulary.uncefact.org/';
const C = 'urn:dataspace:consignment:1';
const GLOBAL = 'urn:uuid:40000000-0000-4000-8000-000000000001';
const STATE = 'urn:uuid:40000000-0000-4000-8000-0000000000a1';
const EVENT = 'urn:uuid:40000000-0000-4000-8000-0000000000a2';
const REV1 = 'urn:uuid:40000000-0000-4000-8000-0000000000b1';
const REV2 = 'urn:uuid:40000000-0000-4000-8000-0000000000b2';
const DOC = 'urn:uuid:40000000-0000-4000-8000-0000000000d1';
const ORG = 'did:web:forwarder.example';
const META = 'urn:dataspace:graph:metadata';
const LOG = 'urn:dataspace:graph:activity-log';

const record = (graph: string, kind: string, seq: number, root: string) =>
  [
    `<${graph}> <${SVC}consignment> <${C}>`,
    `<${graph}> <${SVC}kind> <${SVC}${kind}>`,
    `<${graph}> <${SVC}publisher> <${ORG}>`,
    `<${graph}> <${SVC}published> "2026-11-24T10:00:0${seq}Z"`,
    `<${graph}> <${SVC}seq> "${seq}"^^<http://www.w3.org/2001/XMLSchema#integer>`,
    `<${graph}> <${SVC}root> <${root}>`,
    `<${graph}> <${SVC}activity> <urn:uuid:40000000-0000-4000-8000-00000000000${seq}>`,
  ].map((t) => `${t} <${META}> .`);

/** A consignment as the node records it: its state, an event, a document in two revisions and a system event. */
function nquads(eventSubject = '<urn:uuid:40000000-0000-4000-8000-0000000000e1>'): string {
  return (
    [
      ...record(STATE, 'ConsignmentState', 1, GLOBAL),
      ...record(EVENT, 'Event', 2, 'urn:uuid:40000000-0000-4000-8000-0000000000c1'),
      ...record(REV1, 'DocumentRevision', 3, REV1),
      ...record(REV2, 'DocumentRevision', 4, REV2),
      ...[
        [REV1, 1],
        [REV2, 2],
      ].flatMap(([rev, n]) => [
        `<${rev}> <${SVC}revisionOf> <${DOC}> <${META}> .`,
        `<${rev}> <${SVC}revision> "${n}"^^<http://www.w3.org/2001/XMLSchema#integer> <${META}> .`,
      ]),
      `<${DOC}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${SVC}DocumentRecord> <${META}> .`,
      `<${DOC}> <${SVC}consignment> <${C}> <${META}> .`,
      `<${DOC}> <${SVC}documentIdentifier> "INV 1 \\"ü\\"" <${META}> .`,
      `<${DOC}> <${SVC}publisher> <${ORG}> <${META}> .`,
      `<${DOC}> <${SVC}seq> "3"^^<http://www.w3.org/2001/XMLSchema#integer> <${META}> .`,
      `<${DOC}> <${SVC}currentRevision> <${REV2}> <${META}> .`,
      `${eventSubject} <${SVC}systemEventOf> <${C}> <${LOG}> .`,
      `${eventSubject} <${SVC}publisher> <${ORG}> <${LOG}> .`,
      `${eventSubject} <${SVC}seq> "5"^^<http://www.w3.org/2001/XMLSchema#integer> <${LOG}> .`,
      `${eventSubject} <${SVC}json> "{\\"type\\":\\"SystemEvent\\",\\"note\\":\\"a b\\"}" <${LOG}> .`,
      `<${GLOBAL}> <${UNECE}identifier> "CONS-1" <${STATE}> .`,
      `<${GLOBAL}> <${UNECE}summaryDescription> "Machine parts, 2 pallets"@en <${STATE}> .`,
      `<urn:uuid:40000000-0000-4000-8000-0000000000c1> <${UNECE}typeCode> "ARRIVAL" <${EVENT}> .`,
      `<${REV1}> <${UNECE}identifier> "INV 1 rev 1" <${REV1}> .`,
      `<${REV2}> <${UNECE}identifier> "INV 1 rev 2" <${REV2}> .`,
    ].join('\n') + '\n'
  );
}

/** The real store, counting queries by form and running a hook while a SELECT is out. */
class CountingStore extends DelegatingStore {
  selects = 0;
  constructs = 0;
  duringSelect: (() => void) | undefined;

  override async select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
    this.selects++;
    const rows = await this.inner.select(query, dataset);
    this.duringSelect?.();
    return rows;
  }

  override async construct(query: string, dataset?: QueryDataset): Promise<Quad[]> {
    this.constructs++;
    return this.inner.construct(query, dataset);
  }
}

const principal = { email: 'ops@forwarder.example', org: { id: ORG } } as unknown as Principal;
const visible: VisibleConsignment = {
  consignment: C,
  owner: ORG,
  globalId: GLOBAL,
  identifier: 'CONS-1',
  stateGraph: STATE,
  created: '2026-11-24T10:00:01Z',
  status: 'active',
  updated: '2026-11-24T10:00:04Z',
  seq: 1,
};
const lines = (quads: Quad[]) =>
  quads.map((q) => `${termToString(q.subject)} ${termToString(q.predicate)} ${termToString(q.object)}`).sort();

async function storeWith(text: string): Promise<OxigraphStore> {
  const store = new OxigraphStore();
  await (
    await store.commit({ ops: [{ op: 'insert', nquads: text }] })
  ).durable;
  return store;
}

/** A view over the store as on a SPARQL server (no direct graph text), with or without the clock. */
function viewOn(store: OxigraphStore | CountingStore, clock?: ChangeClock): ConsignmentView {
  const graphJson = new GraphJson(store, queries);
  return new ConsignmentView(
    store,
    queries,
    graphJson,
    new DocumentsView(store, queries, graphJson, 'http://node.example'),
    undefined,
    clock,
  );
}

describe('views: a view never rendered, read in one request on a SPARQL server (views/consignment-packed.rq)', () => {
  it("reads what the metadata query reads, and every data graph's triples", async () => {
    const store = await storeWith(nquads());
    const packed = await readPackedConsignment(store, queries, C);
    const metadata = await store.construct(queries.bind('views/consignment-metadata', { consignment: iri(C) }));
    expect(lines(packed!.metadata)).to.deep.equal(lines(metadata)).and.to.have.length(metadata.length);
    expect([...packed!.graphs.keys()]).to.have.members([STATE, EVENT, REV1, REV2]);
    for (const graph of [STATE, EVENT, REV1, REV2]) {
      const content = await store.construct(`CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${graph}> { ?s ?p ?o } }`);
      expect(lines(packed!.graphs.get(graph)!)).to.deep.equal(lines(content));
    }
  });

  it('renders a first view from that one request, the same view as two requests give, and a later one reads metadata only', async () => {
    const inner = await storeWith(nquads());
    const expected = await viewOn(inner).render(principal, visible, 'all');
    expect(JSON.stringify(expected))
      .to.contain('Machine parts')
      .and.to.contain('ARRIVAL')
      .and.to.contain('INV 1 rev 2')
      .and.to.contain('SystemEvent');
    const store = new CountingStore(inner);
    const view = viewOn(store, new ChangeClock());
    expect(await view.render(principal, visible, 'all')).to.deep.equal(expected);
    expect({ selects: store.selects, constructs: store.constructs }).to.deep.equal({ selects: 1, constructs: 0 });
    expect(await view.render(principal, visible, 'all')).to.deep.equal(expected);
    expect({ selects: store.selects, constructs: store.constructs }).to.deep.equal({ selects: 1, constructs: 1 });
  });

  it('keeps nothing it read while a write about the consignment was committed, and reads the graphs again for the render', async () => {
    const inner = await storeWith(nquads());
    const expected = await viewOn(inner).render(principal, visible, 'all');
    const store = new CountingStore(inner);
    const clock = new ChangeClock();
    const view = viewOn(store, clock);
    store.duringSelect = () => {
      clock.consignmentChanged(C);
      store.duringSelect = undefined;
    };
    expect(await view.render(principal, visible, 'all')).to.deep.equal(expected);
    // The packed request, then the graphs the view frames again in one request (graphs-packed.rq).
    expect({ selects: store.selects, constructs: store.constructs }).to.deep.equal({ selects: 2, constructs: 0 });
  });

  it('reads the metadata the usual way when its text does not come whole (a blank node the server cannot write)', async () => {
    const inner = await storeWith(nquads('_:event'));
    expect(await readPackedConsignment(inner, queries, C)).to.equal(undefined);
    const expected = await viewOn(inner).render(principal, visible, 'all');
    expect(JSON.stringify(expected)).to.contain('SystemEvent');
    const store = new CountingStore(inner);
    expect(await viewOn(store, new ChangeClock()).render(principal, visible, 'all')).to.deep.equal(expected);
    expect({ selects: store.selects, constructs: store.constructs }).to.deep.equal({ selects: 2, constructs: 1 });
  });
});
