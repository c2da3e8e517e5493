import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { createLogger } from '../../src/core/logger.js';
import { MemoryLedger } from '../../src/core/ports/memory-ledger.js';
import { newDelivery, Outbox } from '../../src/core/notify/outbox.js';
import type { LedgerFilter, ReceiverLedger } from '../../src/core/ports/receiver-ledger.js';
import type { SignalType } from '../../src/core/notify/signals.js';
import { QueryBank } from '../../src/core/queries/query-bank.js';
import { PostgresLedger } from '../../src/adapters/postgres/postgres-ledger.js';
import { openPostgres } from '../../src/adapters/postgres/postgres-state.js';
import { DelegatingStore } from '../../src/core/store/delegating-store.js';
import { OxigraphStore } from '../../src/adapters/oxigraph/oxigraph-store.js';
import type { Bindings, QueryDataset } from '../../src/core/ports/quad-store.js';
import { Postgres, postgresMissing } from '../helpers/postgres.js';

const queries = new QueryBank();
const RECEIVERS = ['did:web:border.example', 'did:web:douane.example', 'did:web:port.example'];
const TYPES: SignalType[] = ['PreNotification', 'Despatch', 'CarrierBookingNotification'];
const T0 = Date.parse('2026-11-23T10:00:00Z');
const HOUR = 3_600_000;

/** A real store that answers at most `rowCap` rows, as a SPARQL server's profile says, and counts the queries asked. */
class CappedStore extends DelegatingStore {
  selects = 0;
  override get rowCap(): number {
    return 4;
  }
  override select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
    this.selects++;
    return this.inner.select(query, dataset);
  }
}

/** Every page of `receiver`'s list from the top, following `next`, as GET /signals does. */
async function walk(ledger: ReceiverLedger, receiver: string, filter: LedgerFilter, items: number, examine: number) {
  const pages: { seqs: number[]; next?: number }[] = [];
  let before: number | undefined = Number.MAX_SAFE_INTEGER;
  while (before !== undefined && pages.length < 200) {
    const page = await ledger.page(receiver, filter, before, { items, examine, slice: 3 });
    pages.push({ seqs: page.items.map((entry) => entry.seq), ...(page.next === undefined ? {} : { next: page.next }) });
    before = page.next;
  }
  return pages;
}

describe('replicas: the receivers ledger in PostgreSQL', function () {
  this.timeout(60_000);
  let postgres: Postgres;
  let pool: pg.Pool;
  const store = new CappedStore(new OxigraphStore());
  const outbox = new Outbox(store, queries);
  const logger = createLogger('silent');
  let seq = 0;

  /** Signals of every type over two days, each to one to three receivers, with gaps in the seqs (other records take numbers too). */
  async function queue(count: number) {
    for (let i = 0; i < count; i++) {
      seq += 1 + (i % 3);
      const receivers = RECEIVERS.slice(0, 1 + (i % 3));
      const deliveries = receivers.map((receiver) => ({ receiver, seq: ++seq, delivery: newDelivery() }));
      const ops = outbox.queueOps(
        {
          id: `urn:uuid:${randomUUID()}`,
          type: TYPES[i % 5 === 0 ? 1 : i % 7 === 0 ? 2 : 0]!,
          consignment: `urn:dataspace:consignment:${randomUUID()}`,
          body: '{}',
          published: new Date(T0 + ((i * 7) % 48) * HOUR),
          activity: `urn:uuid:${randomUUID()}`,
        },
        deliveries,
      );
      await (
        await store.commit({ ops })
      ).durable;
    }
  }

  before(async function () {
    if (postgresMissing()) this.skip(); // reason: no PostgreSQL here; .ci/run installs it
    postgres = await Postgres.start();
    pool = await openPostgres(postgres.url);
    await queue(40);
  });
  after(async () => {
    await pool?.end();
    await postgres?.stop();
  });

  it('reads the outbox a range of rowCap seqs at a time and answers every page as the memory ledger does', async () => {
    const memory = new MemoryLedger(store, queries);
    await memory.startLoading();
    store.selects = 0;
    const ledger = new PostgresLedger(pool, store, queries, logger);
    await ledger.startLoading();
    // One query for the highest seq, then one a range of 4 seqs.
    expect(store.selects).to.equal(1 + Math.ceil(seq / 4));
    const filters: LedgerFilter[] = [
      {},
      { type: 'Despatch' },
      { type: 'CarrierBookingNotification' },
      { since: T0 + 6 * HOUR, until: T0 + 30 * HOUR },
      { type: 'PreNotification', since: T0 + 40 * HOUR },
      { until: T0 - HOUR },
    ];
    let compared = 0;
    for (const receiver of [...RECEIVERS, 'did:web:nobody.example'])
      for (const filter of filters)
        for (const [items, examine] of [
          [50, 20_000],
          [3, 20_000],
          [1, 20_000],
          [3, 5],
          [2, 2],
          [4, 9],
        ] as const) {
          const expected = await walk(memory, receiver, filter, items, examine);
          expect(
            await walk(ledger, receiver, filter, items, examine),
            `${receiver} ${JSON.stringify(filter)} ${items}/${examine}`,
          ).to.deep.equal(expected);
          compared += expected.length;
        }
    expect(compared).to.be.greaterThan(500);
  });

  it('lists what it is told at once, each delivery once, and a new writer reads only the outbox above its mark', async () => {
    const ledger = new PostgresLedger(pool, store, queries, logger);
    await ledger.startLoading();
    const [first] = (await ledger.page(RECEIVERS[0]!, {}, Number.MAX_SAFE_INTEGER, { items: 1, examine: 10, slice: 10 })).items;
    ledger.add(RECEIVERS[0]!, first!);
    const told = { seq: seq + 1, delivery: newDelivery(), type: 'Despatch', published: T0 };
    ledger.add(RECEIVERS[0]!, told);
    // Not in the outbox: only what the ledger was told can list it, and it is listed without a wait.
    const top = await ledger.page(RECEIVERS[0]!, {}, Number.MAX_SAFE_INTEGER, { items: 2, examine: 10, slice: 10 });
    expect(top.items).to.deep.equal([told, first]);

    // Written to the outbox as a writer that died before telling its ledger leaves them.
    const markedAt = seq;
    seq += 1;
    await queue(6);
    const memory = new MemoryLedger(store, queries);
    await memory.startLoading();
    store.selects = 0;
    const next = new PostgresLedger(pool, store, queries, logger);
    await next.startLoading();
    expect(store.selects).to.equal(1 + Math.ceil((seq - markedAt) / 4));
    for (const receiver of RECEIVERS) {
      const expected = (await walk(memory, receiver, {}, 1_000, 20_000))[0]!.seqs;
      const listed = (await walk(next, receiver, {}, 1_000, 20_000))[0]!.seqs;
      expect(listed.filter((n) => n !== told.seq)).to.deep.equal(expected);
    }
    await Promise.all([ledger.close(), next.close()]);
  });

  it('tries a refused insert again, and lets go of one refused throughout without holding up the pages', async () => {
    const ledger = new PostgresLedger(pool, store, queries, logger, 20);
    await ledger.startLoading();
    const receiver = 'did:web:refused.example';
    const entry = (n: number, delivery: string) => ({ seq: seq + n, delivery, type: 'Despatch', published: T0 });
    await pool.query("ALTER TABLE dataspace_ledger ADD CONSTRAINT refused CHECK (delivery NOT LIKE 'urn:refused:%') NOT VALID");
    try {
      ledger.add(receiver, entry(1, 'urn:refused:for-a-while'));
      await new Promise((ok) => setTimeout(ok, 100));
      await pool.query('ALTER TABLE dataspace_ledger DROP CONSTRAINT refused');
      const listed = await ledger.page(receiver, {}, Number.MAX_SAFE_INTEGER, { items: 5, examine: 10, slice: 10 });
      expect(listed.items.map((e) => e.delivery)).to.deep.equal(['urn:refused:for-a-while']);

      await pool.query("ALTER TABLE dataspace_ledger ADD CONSTRAINT refused CHECK (delivery NOT LIKE 'urn:refused:%') NOT VALID");
      ledger.add(receiver, entry(2, 'urn:refused:always'));
      ledger.add(receiver, entry(3, 'urn:taken:after'));
      const started = Date.now();
      const after = await ledger.page(receiver, {}, Number.MAX_SAFE_INTEGER, { items: 5, examine: 10, slice: 10 });
      // Ten attempts of the batch 20 ms apart, then one a delivery: only the one refused is let go.
      expect(Date.now() - started).to.be.within(150, 10_000);
      expect(after.items.map((e) => e.delivery)).to.deep.equal(['urn:taken:after', 'urn:refused:for-a-while']);
    } finally {
      await pool.query('ALTER TABLE dataspace_ledger DROP CONSTRAINT IF EXISTS refused');
    }
    await ledger.close();
  });

  it('reads the outbox again when the ledger is ahead of it (another data space, an emptied store)', async () => {
    await pool.query('UPDATE dataspace_ledger_mark SET complete_upto = $1', [seq + 1_000]);
    const memory = new MemoryLedger(store, queries);
    await memory.startLoading();
    const ledger = new PostgresLedger(pool, store, queries, logger);
    await ledger.startLoading();
    // What the outbox never held (told above, refused above) is gone; the rest is read back.
    for (const receiver of [...RECEIVERS, 'did:web:refused.example'])
      expect(await walk(ledger, receiver, {}, 1_000, 20_000), receiver).to.deep.equal(await walk(memory, receiver, {}, 1_000, 20_000));
    expect(Number((await pool.query('SELECT complete_upto FROM dataspace_ledger_mark')).rows[0].complete_upto)).to.equal(seq);
    await ledger.close();
  });
});
