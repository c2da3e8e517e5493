import { expect } from 'chai';
import { Ingest } from '../../../../src/core/activities/ingest.js';
import type { Principal } from '../../../../src/core/auth/principal.js';
import { ConsignmentIndex } from '../../../../src/core/ports/memory-consignment-catalog.js';
import type { ConsignmentEntry } from '../../../../src/core/ports/consignment-catalog.js';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import { DelegatingStore } from '../../../../src/core/store/delegating-store.js';
import type { Bindings, QuadStore, QueryDataset } from '../../../../src/core/ports/quad-store.js';
import { activity, consignment, document, event, target } from '../../../helpers/payloads.js';
import { fedStore } from '../../../helpers/fed-store.js';
import { publish } from '../../../helpers/publish.js';
import { firstOf } from '../../../helpers/present.js';

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
  selects = 0;
  hold: { until: Promise<void>; when: (query: string) => boolean; reached: () => void } | undefined;
  fail: ((query: string) => boolean) | undefined;

  constructor(
    inner: QuadStore,
    private readonly cap?: number,
  ) {
    super(inner);
  }

  override get rowCap(): number | undefined {
    return this.cap;
  }

  override async select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
    this.selects += 1;
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

/** A store written through the inbox: records on two owners and routes, an Update, an event, documents. */
async function written(cap?: number) {
  const fed = fedStore();
  const index = new ConsignmentIndex(new WatchedStore(fed.store, cap), queries);
  const ingest = new Ingest({ store: fed.store, queries, nodeName: 'test-node', index });
  await ingest.init();
  const created: Record<string, unknown>[] = [];
  for (const [principal, extra] of [
    [A, {}],
    [B, viaHamburg],
    [A, viaHamburg],
    [B, {}],
    [A, {}],
  ] as const) {
    const c = consignment(extra);
    created.push(c);
    await publish(ingest, principal, activity('Create', principal.org.id, c));
  }
  const sent = firstOf(created, 5);
  await publish(ingest, A, activity('Update', A.org.id, { ...sent[2], identifier: 'REF-renamed', ...viaHamburg }, target(sent[2])));
  await publish(ingest, B, activity('Add', B.org.id, event('DEP'), target(sent[1])));
  await publish(ingest, A, activity('Add', A.org.id, event('svc:despatched'), target(sent[0])));
  await publish(ingest, A, activity('Add', A.org.id, document('INV-1'), target(sent[0])));
  await publish(ingest, B, activity('Add', B.org.id, document('INV-2'), target(sent[3])));
  await publish(ingest, B, activity('Add', B.org.id, document('INV-2'), target(sent[3])));
  return { ...fed, sent, ingest, index };
}

/** What the index holds, in a form two indexes can be compared by. */
async function picture(index: ConsignmentIndex) {
  const iris = (entries: ConsignmentEntry[]) => entries.map((e) => e.iri);
  const lists = (map: Map<string, ConsignmentEntry[]>) =>
    Object.fromEntries(
      [...map]
        .filter(([, v]) => v.length > 0)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, iris(v)]),
    );
  const entries = [...index.byOwner.values()].flat().sort((a, b) => a.seq - b.seq);
  return {
    // The route is the entry's locations; a record read from its start literal carries it as well, one read the long way not.
    entries: entries.map(({ record: { routes, ...record }, ...e }) => ({
      seq: e.seq,
      iri: e.iri,
      owner: e.owner,
      globalId: e.globalId,
      locations: [...e.locations].sort(),
      record,
    })),
    byOwner: lists(index.byOwner),
    byLocation: lists(index.byLocation),
    byStatus: lists(index.byStatus),
    byUpdate: [...index.byUpdate.from({ ms: -Infinity, seq: -1 })].map((e) => [e.updatedMs, e.iri]),
    documents: Object.fromEntries(
      [...index.documentsByOwner].map(([owner, docs]) => [owner, docs.map((d) => [d.seq, d.iri, d.consignment.iri])]),
    ),
    named: await Promise.all(entries.map(async (e) => [iris(await index.named(e.globalId)), iris(await index.named(e.record.identifier))])),
  };
}

/** The index a restarted node reads from `store`. */
async function ownRead(store: QuadStore, cap?: number) {
  const index = new ConsignmentIndex(new WatchedStore(store, cap), queries);
  await index.complete();
  return await picture(index);
}

describe('ConsignmentIndex (one index for writes and reads)', () => {
  for (const cap of [undefined, 2]) {
    it(`follows each write at its commit to what a restart reads from the store${cap ? ' (under a row cap)' : ''}`, async () => {
      const { store, index } = await written(cap);
      const followed = await picture(index);
      expect(followed.entries).to.have.length(5);
      expect(followed.byStatus.despatched, 'an event moved one consignment to despatched').to.have.length(1);
      expect(
        followed.byUpdate.map(([ms]) => ms),
        'in update order',
      ).to.deep.equal(followed.entries.map((e) => Date.parse(e.record.updated)).sort((a, b) => a - b));
      expect(Object.values(followed.documents).flat()).to.have.length(2);
      expect(followed).to.deep.equal(await ownRead(store, cap));
      expect(followed).to.deep.equal(await ownRead(store, cap === undefined ? 2 : undefined));
    });
  }

  it('costs a read nothing for the writes before it: no query after a burst of writes', async () => {
    const { index, ingest } = await written();
    const store = (index as unknown as { store: WatchedStore }).store;
    await index.complete();
    for (let i = 0; i < 20; i++) await publish(ingest, B, activity('Create', B.org.id, consignment(viaHamburg)));
    const before = store.selects;
    await index.complete();
    expect(index.byOwner.get(B.org.id)).to.have.length(22);
    expect(index.byLocation.get('DEHAM')).to.have.length(22);
    expect(store.selects - before, 'queries a read made after the writes').to.equal(0);
  });

  it('keeps the writes that land while it loads routes and documents, and reads what they did not touch', async () => {
    const { store, sent } = await written(2);
    const watched = new WatchedStore(store, 2);
    const index = new ConsignmentIndex(watched, queries);
    const ingest = new Ingest({ store, queries, nodeName: 'test-node', index });
    await ingest.init();
    await index.ready();
    // The records are in (writes go on), then the routes and documents pages wait while writes land.
    let release = () => {};
    const until = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached = () => {};
    const held = new Promise<void>((resolve) => {
      reached = resolve;
    });
    watched.hold = { until, when: (query) => query.includes('AS ?entry)'), reached };
    const loading = index.complete();
    await held;
    const late = consignment(viaHamburg);
    await publish(ingest, B, activity('Create', B.org.id, late));
    await publish(ingest, B, activity('Add', B.org.id, document('INV-late'), target(late)));
    // Away from Hamburg: a routes page read before this must not put it back there.
    await publish(
      ingest,
      B,
      activity(
        'Update',
        B.org.id,
        { ...sent[1], unloadingBaseportLocation: { type: 'LogisticsLocation', name: 'Rotterdam', UNLocode: 'NLRTM' } },
        target(sent[1]),
      ),
    );
    await publish(ingest, A, activity('Update', A.org.id, { ...sent[4], identifier: 'REF-moved', ...viaHamburg }, target(sent[4])));
    await publish(ingest, A, activity('Add', A.org.id, document('INV-3'), target({ ...sent[4], identifier: 'REF-moved' })));
    release();
    await loading;
    const expected = await ownRead(store);
    expect(expected.entries).to.have.length(6);
    expect(Object.values(expected.documents).flat()).to.have.length(4);
    expect(expected.byLocation.DEHAM).to.not.include(expected.entries.find((e) => e.globalId === sent[1].globalId)!.iri);
    expect(await picture(index)).to.deep.equal(expected);
  });

  it('tells a failed load to whoever waits, and loads again on the next call', async () => {
    const { store } = await written();
    const watched = new WatchedStore(store);
    const index = new ConsignmentIndex(watched, queries);
    watched.fail = isRecordsPage;
    expect(
      await index.ready().then(
        () => 'loaded',
        (e: Error) => e.message,
      ),
    ).to.equal('the server went away');
    watched.fail = (query) => query.includes('AS ?entry)');
    expect(
      await index.complete().then(
        () => 'loaded',
        (e: Error) => e.message,
      ),
    ).to.equal('the server went away');
    watched.fail = undefined;
    await index.complete();
    expect(await picture(index)).to.deep.equal(await ownRead(store));
  });
});
