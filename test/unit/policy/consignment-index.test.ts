import { expect } from 'chai';
import { Ingest } from '../../../src/activities/ingest.js';
import type { Principal } from '../../../src/auth/principal.js';
import { ConsignmentIndex, type ConsignmentEntry } from '../../../src/policy/consignment-index.js';
import { QueryBank } from '../../../src/queries/query-bank.js';
import { DelegatingStore } from '../../../src/store/delegating-store.js';
import type { Bindings, QuadStore, QueryDataset } from '../../../src/store/quad-store.js';
import { activity, consignment, document, event, target } from '../../helpers/payloads.js';
import { fedStore } from '../../helpers/fed-store.js';

const queries = new QueryBank();
const org = (id: string): Principal => ({ email: `u@${id}`, org: { id, name: id, role: 'freightForwarder', locations: [] } });
const A = org('did:web:a.example');
const B = org('did:web:b.example');
const viaHamburg = { unloadingBaseportLocation: { type: 'LogisticsLocation', name: 'Hamburg', UNLocode: 'DEHAM' } };

/**
 * A read of the records: a records page (ingest/consignment-records-page.rq, the one query that
 * answers `AS ?record`), or their literals read whole (ingest/consignment-start-records.rq).
 */
const isRecordsPage = (query: string): boolean => query.includes('AS ?record)') || query.includes('?consignment svc:startRecord ?record');

/** The store as the read index sees it: a server's row cap if given, its records pages counted, a query held or failed on demand. */
class WatchedStore extends DelegatingStore {
  recordPages = 0;
  routeReads = 0;
  hold: { until: Promise<void>; when: (query: string) => boolean; reached: () => void } | undefined;
  fail: ((query: string) => boolean) | undefined;

  constructor(inner: QuadStore, private readonly cap?: number) {
    super(inner);
  }

  override get rowCap(): number | undefined {
    return this.cap;
  }

  override async select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
    if (isRecordsPage(query)) this.recordPages += 1;
    if (query.includes('AS ?route)')) this.routeReads += 1;
    if (this.fail?.(query)) throw new Error('the server went away');
    const hold = this.hold;
    if (hold?.when(query)) {
      this.hold = undefined;
      hold.reached();
      await hold.until;
    }
    return this.inner.select(query, dataset);
  }
}

async function publish(ingest: Ingest, principal: Principal, body: Record<string, unknown>): Promise<void> {
  expect((await ingest.receive(body, principal)).status).to.equal('completed');
}

/** A store written through the inbox: records on two owners and routes, an Update, an event, documents. */
async function written() {
  const fed = fedStore();
  const ingest = new Ingest({ store: fed.store, queries, nodeName: 'test-node' });
  await ingest.init();
  const sent: Record<string, unknown>[] = [];
  for (const [principal, extra] of [[A, {}], [B, viaHamburg], [A, viaHamburg], [B, {}], [A, {}]] as const) {
    const c = consignment(extra);
    sent.push(c);
    await publish(ingest, principal, activity('Create', principal.org.id, c));
  }
  await publish(ingest, A, activity('Update', A.org.id, { ...sent[2], identifier: 'REF-renamed', ...viaHamburg }, target(sent[2])));
  await publish(ingest, B, activity('Add', B.org.id, event('DEP'), target(sent[1])));
  await publish(ingest, A, activity('Add', A.org.id, document('INV-1'), target(sent[0])));
  await publish(ingest, B, activity('Add', B.org.id, document('INV-2'), target(sent[3])));
  return { ...fed, sent };
}

/** What the index holds, in a form two indexes can be compared by. */
function picture(index: ConsignmentIndex) {
  const iris = (entries: ConsignmentEntry[]) => entries.map((e) => e.iri);
  const lists = (map: Map<string, ConsignmentEntry[]>) => Object.fromEntries([...map].filter(([, v]) => v.length > 0).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, iris(v)]));
  const entries = [...index.byOwner.values()].flat().sort((a, b) => a.seq - b.seq);
  return {
    // The route is the entry's locations; a record read from its start literal carries it as well, one read the long way not.
    entries: entries.map(({ record: { routes, ...record }, ...e }) => ({ seq: e.seq, iri: e.iri, owner: e.owner, globalId: e.globalId, locations: [...e.locations].sort(), record })),
    byOwner: lists(index.byOwner),
    byLocation: lists(index.byLocation),
    documents: Object.fromEntries([...index.documentsByOwner].map(([owner, docs]) => [owner, docs.map((d) => [d.seq, d.iri, d.consignment.iri])])),
    named: entries.map((e) => [iris(index.named(e.globalId)), iris(index.named(e.record.identifier))]),
  };
}

/** The index a node builds on `store` by its own read, without the write path's rows. */
async function ownRead(store: QuadStore, cap?: number) {
  const index = new ConsignmentIndex(new WatchedStore(store, cap), queries);
  await index.ready();
  return picture(index);
}

/** A restarted node's write path and read index over `store`, wired as src/node.ts wires them. */
async function restarted(store: QuadStore, onAccepted: ReturnType<typeof fedStore>['onAccepted'], cap?: number, recordsStore: QuadStore = new WatchedStore(store, cap)) {
  const ingest = new Ingest({ store: recordsStore, queries, nodeName: 'test-node' });
  const watched = new WatchedStore(store, cap);
  const index = new ConsignmentIndex(watched, queries);
  index.share(ingest.records);
  onAccepted((accepted) => index.accepted(accepted));
  return { ingest, watched, index };
}

describe('ConsignmentIndex (the read index\'s load)', () => {
  for (const cap of [undefined, 2]) {
    it(`builds from the write path's rows what its own read builds, without reading the records again${cap ? ', in pages under a row cap' : ''}`, async () => {
      const { store, onAccepted } = await written();
      const { ingest, watched, index } = await restarted(store, onAccepted, cap);
      await ingest.init();
      await index.ready();
      expect(watched.recordPages, 'record pages the index read').to.equal(0);
      // Without a cap the records came from their start literals, routes included; a server's pages carry none.
      if (cap === undefined) expect(watched.routeReads, 'route reads').to.equal(0);
      else expect(watched.routeReads, 'route reads').to.be.greaterThan(0);
      const expected = await ownRead(store, cap);
      expect(expected.entries).to.have.length(5);
      expect(Object.values(expected.documents).flat()).to.have.length(2);
      expect(picture(index)).to.deep.equal(expected);
      // Read whole (routes without ranges) or in ranges, the same index.
      expect(await ownRead(store, cap === undefined ? 2 : undefined)).to.deep.equal(expected);
      // Handed over once: a load after a failed one reads the store.
      expect(ingest.records.takeLoaded()).to.equal(undefined);
    });
  }

  it('reads the records itself when a write came between the write path\'s read and its load', async () => {
    const { store, onAccepted, sent } = await written();
    const { ingest, watched, index } = await restarted(store, onAccepted);
    await ingest.init();
    await ingest.records.ready();
    // Before the first read, as a node that was never warmed: accepted() does not note these yet.
    const late = consignment(viaHamburg);
    await publish(ingest, B, activity('Create', B.org.id, late));
    await publish(ingest, B, activity('Add', B.org.id, document('INV-late'), target(late)));
    await publish(ingest, A, activity('Update', A.org.id, { ...sent[0], identifier: 'REF-moved', ...viaHamburg }, target(sent[0])));
    await index.ready();
    expect(watched.recordPages).to.equal(1);
    const expected = await ownRead(store);
    expect(expected.entries).to.have.length(6);
    expect(picture(index)).to.deep.equal(expected);
  });

  it('reads again the writes that land while it loads from the write path\'s rows', async () => {
    const { store, onAccepted, sent } = await written();
    const { ingest, watched, index } = await restarted(store, onAccepted);
    await ingest.init();
    // The load takes the rows (the routes with them), then its documents page waits while writes land.
    let release = () => {};
    const until = new Promise<void>((resolve) => { release = resolve; });
    let reached = () => {};
    const held = new Promise<void>((resolve) => { reached = resolve; });
    watched.hold = { until, when: (query) => query.includes('AS ?entry)'), reached };
    const loading = index.ready();
    await held;
    const late = consignment(viaHamburg);
    await publish(ingest, B, activity('Create', B.org.id, late));
    await publish(ingest, B, activity('Add', B.org.id, document('INV-late'), target(late)));
    await publish(ingest, A, activity('Update', A.org.id, { ...sent[4], identifier: 'REF-moved', ...viaHamburg }, target(sent[4])));
    await publish(ingest, A, activity('Add', A.org.id, document('INV-3'), target({ ...sent[4], identifier: 'REF-moved' })));
    release();
    await loading;
    await index.ready();
    expect(watched.recordPages).to.equal(0);
    const expected = await ownRead(store);
    expect(expected.entries).to.have.length(6);
    expect(Object.values(expected.documents).flat()).to.have.length(4);
    expect(picture(index)).to.deep.equal(expected);
  });

  it('loads on its own when the write path\'s load failed, and after a load of its own that failed', async () => {
    const { store, onAccepted } = await written();
    // The write path's records read through a store that fails their pages: the writes' error, not the reads'.
    const failing = new WatchedStore(store);
    failing.fail = isRecordsPage;
    const { ingest, watched, index } = await restarted(store, onAccepted, undefined, failing);
    await ingest.init();
    expect(await ingest.records.ready().then(() => 'loaded', (e: Error) => e.message)).to.equal('the server went away');
    await index.ready();
    expect(watched.recordPages).to.equal(1);
    expect(picture(index)).to.deep.equal(await ownRead(store));

    // Taken from the write path, then failed on its documents: the next read loads from the store.
    const again = await restarted(store, onAccepted, undefined);
    await again.ingest.init();
    again.watched.fail = (query) => query.includes('AS ?entry)');
    expect(await again.index.ready().then(() => 'loaded', (e: Error) => e.message)).to.match(/could not read its consignment index \(the server went away\)/);
    again.watched.fail = undefined;
    await again.index.ready();
    expect(again.watched.recordPages).to.equal(1);
    expect(picture(again.index)).to.deep.equal(await ownRead(store));
  });
});
