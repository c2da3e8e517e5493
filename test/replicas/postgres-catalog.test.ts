import { expect } from 'chai';
import type pg from 'pg';
import type { Accepted } from '../../src/core/catalog/accepted.js';
import type { ConsignmentRecord } from '../../src/core/catalog/records.js';
import type { QueryBank } from '../../src/core/queries/query-bank.js';
import { PostgresCatalog } from '../../src/adapters/postgres/postgres-catalog.js';
import { openPostgres } from '../../src/adapters/postgres/postgres-state.js';
import type { QuadStore } from '../../src/core/ports/quad-store.js';
import { Postgres, postgresMissing } from '../helpers/postgres.js';

const OWNER = 'did:web:forwarder.example';
const record = (n: number, identifier: string): ConsignmentRecord => ({
  consignment: `urn:dataspace:consignment:${n}`,
  owner: OWNER,
  globalId: `urn:uuid:00000000-0000-4000-8000-00000000000${n}`,
  identifier,
  stateGraph: `urn:uuid:00000000-0000-4000-8000-00000000010${n}`,
  created: '2026-11-28T09:00:00Z',
  status: 'published',
  seq: n,
  routes: ['GBFXT'],
});
const created = (r: ConsignmentRecord): Accepted => ({ kind: 'consignment', activityType: 'Create', consignment: r, graph: r.stateGraph });
const deferred = () => {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
};

/**
 * The catalog in PostgreSQL keeps a write only once the store has it: a writer killed between its
 * commit and the store's applying it leaves no row (a row would refuse the retried Create's globalId
 * for good), while the decisions under the ingest's lock see the write at once.
 */
describe('replicas: the catalog in PostgreSQL writes a row once the store has the write', function () {
  this.timeout(60_000);
  let postgres: Postgres;
  let pool: pg.Pool;
  let catalog: PostgresCatalog;
  const rows = async () =>
    (await pool.query<{ iri: string; identifier: string }>('SELECT iri, identifier FROM dataspace_consignment ORDER BY seq')).rows;

  before(async function () {
    if (postgresMissing()) this.skip(); // reason: no PostgreSQL here; .ci/run installs it
    postgres = await Postgres.start();
    pool = await openPostgres(await postgres.database('catalog'));
    // Lookups and accepted writes ask PostgreSQL only; the store is read by the catch-up, not run here.
    catalog = new PostgresCatalog(
      pool,
      {} as QuadStore,
      {} as QueryBank,
      () => 10,
      (reason) => {
        throw new Error(reason);
      },
    );
  });
  after(async () => {
    await pool?.end();
    await postgres?.stop();
  });

  it('decides on a write in flight, and writes its row only after the store applied it', async () => {
    const first = record(1, 'REF-1');
    const applied = deferred();
    const kept = catalog.accepted(created(first), '2026-11-28T09:00:01Z', applied.promise);
    expect((await catalog.byGlobalId(first.globalId))?.consignment, 'the next decision sees it').to.equal(first.consignment);
    expect((await catalog.byIdentifier(OWNER, 'REF-1'))?.consignment).to.equal(first.consignment);
    expect(await rows(), 'no row before the store has it').to.deep.equal([]);
    applied.resolve();
    await kept;
    expect(await rows()).to.deep.equal([{ iri: first.consignment, identifier: 'REF-1' }]);
  });

  it('leaves no row of a write the store refused', async () => {
    const second = record(2, 'REF-2');
    const refused = deferred();
    const kept = catalog.accepted(created(second), '2026-11-28T09:00:02Z', refused.promise);
    refused.reject(new Error('the store refused the update'));
    await kept;
    expect(await catalog.byGlobalId(second.globalId)).to.equal(undefined);
    expect((await rows()).map((r) => r.iri)).to.deep.equal(['urn:dataspace:consignment:1']);
  });

  it('answers an identifier an Update in flight gave up as taken by nobody', async () => {
    const renamed = { ...record(1, 'REF-1-NEW') };
    const applied = deferred();
    const kept = catalog.accepted({ ...created(renamed), activityType: 'Update' }, '2026-11-28T09:00:03Z', applied.promise);
    expect(await catalog.byIdentifier(OWNER, 'REF-1'), 'the old identifier is free at once').to.equal(undefined);
    expect((await catalog.byIdentifier(OWNER, 'REF-1-NEW'))?.consignment).to.equal(renamed.consignment);
    applied.resolve();
    await kept;
    expect(await rows()).to.deep.equal([{ iri: renamed.consignment, identifier: 'REF-1-NEW' }]);
    expect(await catalog.byIdentifier(OWNER, 'REF-1')).to.equal(undefined);
  });

  it('finds a record by its sent id in flight and in its row, and frees one an Update in flight dropped', async () => {
    const sent = { ...record(3, 'REF-3'), sentId: 'urn:ucr:24PLP3' };
    const applied = deferred();
    const kept = catalog.accepted(created(sent), '2026-11-28T09:00:04Z', applied.promise);
    expect((await catalog.bySentId('urn:ucr:24PLP3'))?.consignment, 'the next decision sees it').to.equal(sent.consignment);
    applied.resolve();
    await kept;
    expect((await catalog.bySentId('urn:ucr:24PLP3'))?.consignment).to.equal(sent.consignment);
    expect((await catalog.named('urn:ucr:24PLP3')).map((e) => e.iri)).to.deep.equal([sent.consignment]);
    const { sentId: _dropped, ...unsent } = sent;
    const dropping = deferred();
    const update = catalog.accepted({ ...created(unsent), activityType: 'Update' }, '2026-11-28T09:00:05Z', dropping.promise);
    expect(await catalog.bySentId('urn:ucr:24PLP3'), 'the dropped id is free at once').to.equal(undefined);
    dropping.resolve();
    await update;
    expect(await catalog.bySentId('urn:ucr:24PLP3')).to.equal(undefined);
    expect(await catalog.named('urn:ucr:24PLP3')).to.deep.equal([]);
  });

  it("frees a refused write's globalId at once, while the write before it still waits for its row", async () => {
    const waiting = record(5, 'REF-5');
    const refusedOne = record(6, 'REF-6');
    const applied = deferred();
    const refused = deferred();
    const keptFirst = catalog.accepted(created(waiting), '2026-11-28T09:00:04Z', applied.promise);
    const keptSecond = catalog.accepted(created(refusedOne), '2026-11-28T09:00:05Z', refused.promise);
    refused.reject(new Error('the store refused the update: the lease was lost'));
    await new Promise((ok) => setImmediate(ok));
    // A retry of the refused Create decides now: its globalId must be free, not held by its own refused attempt.
    expect(await catalog.byGlobalId(refusedOne.globalId), 'the refused write is no longer in flight').to.equal(undefined);
    expect((await catalog.byGlobalId(waiting.globalId))?.consignment, 'the one before still is').to.equal(waiting.consignment);
    applied.resolve();
    await Promise.all([keptFirst, keptSecond]);
    expect((await rows()).map((r) => r.iri))
      .to.include(waiting.consignment)
      .and.not.include(refusedOne.consignment);
  });
});
