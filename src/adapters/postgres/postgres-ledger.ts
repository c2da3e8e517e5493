import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { Logger } from '../../core/logger.js';
import type { LedgerEntry, LedgerFilter, ReceiverLedger } from '../../core/ports/receiver-ledger.js';
import type { QueryBank } from '../../core/queries/query-bank.js';
import { int } from '../../core/queries/query-bank.js';
import type { QuadStore } from '../../core/ports/quad-store.js';
import type { WalkLimits, WalkPage } from '../../core/util/filtered-walk.js';
import { unreachable } from './postgres-outage.js';
import { statement } from './statements.js';

/** Deliveries one INSERT carries. */
const BATCH = 1_000;
/** How many times a failed INSERT is tried. */
const ATTEMPTS = 10;

interface Row extends LedgerEntry {
  receiver: string;
}

/**
 * A replica set's receivers' ledger (core/ports/receiver-ledger.ts), in PostgreSQL (`dataspace_ledger`):
 * the replica holds none of it in memory, whatever the number of deliveries. A page is one keyset
 * query on the primary key, bounded by the page's limits.
 *
 * The ledger is told of a delivery after its commit to the SPARQL server, so a writer that died in
 * between leaves it behind the outbox. A writer that starts reads from the outbox the deliveries
 * above `dataspace_ledger_mark` and marks the ledger complete up to the outbox's highest seq as read
 * before it took any write. Not the highest seq the table holds: two organisations' writes run side
 * by side, so a delivery may be committed after one with a higher seq, and a writer dying between the
 * two would leave a gap below the highest.
 */
export class PostgresLedger implements ReceiverLedger {
  /** Told, not yet in PostgreSQL. */
  private readonly queue: Row[] = [];
  /** Settles once what was queued when it was set is in PostgreSQL (or the ledger is closed). */
  private tail: Promise<void> = Promise.resolve();
  private flushing = false;
  private closed = false;
  private loaded: Promise<void> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly logger: Logger,
    /** How long a failed INSERT waits before it is tried again. */
    private readonly retryMs = 1_000,
  ) {}

  startLoading(): Promise<void> {
    if (!this.loaded) {
      // A catch-up that failed is tried again by the next page rather than failing every page.
      const loading = this.catchUp();
      this.loaded = loading;
      loading.catch(() => {
        if (this.loaded === loading) this.loaded = undefined;
      });
    }
    return this.loaded;
  }

  /** Kept in order of telling: the follower is synchronous, PostgreSQL is not. A page waits for it. */
  add(receiver: string, entry: LedgerEntry): void {
    this.queue.push({ receiver, ...entry });
    if (this.flushing) return;
    this.flushing = true;
    this.tail = this.tail.then(() => this.flush());
  }

  async page(receiver: string, filter: LedgerFilter, before: number, limits: WalkLimits): Promise<WalkPage<LedgerEntry, number>> {
    await this.startLoading();
    // What this writer was told before the page was asked is on it, as a write's answer promises.
    await this.tail;
    const instant = (ms: number | undefined) => (ms === undefined ? null : new Date(ms));
    const { rows } = await this.pool.query<{ seq: string; delivery: string; type: string; published: Date }>(statement('ledger-page'), [
      receiver,
      before,
      limits.examine,
      filter.type ?? null,
      instant(filter.since),
      instant(filter.until),
      limits.items + 1,
    ]);
    const items = rows.map((row) => ({ seq: Number(row.seq), delivery: row.delivery, type: row.type, published: row.published.getTime() }));
    // As the walk of the memory ledger answers: one more item passed, so the next page starts below the last shown.
    if (items.length > limits.items) return { items: items.slice(0, limits.items), next: items[limits.items - 1]!.seq };
    const last = await this.pool.query<{ seq: string }>(statement('ledger-examined-last'), [receiver, before, limits.examine]);
    const stopped = last.rows[0];
    return stopped ? { items, next: Number(stopped.seq) } : { items };
  }

  /** Waits for what was told to be in PostgreSQL; what still fails is left to the next writer's catch-up. */
  async close(): Promise<void> {
    this.closed = true;
    await this.tail;
  }

  private async flush(): Promise<void> {
    this.flushing = false;
    let failures = 0;
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, BATCH);
      try {
        await this.insert(batch);
        this.queue.splice(0, batch.length);
        failures = 0;
      } catch (error) {
        // PostgreSQL out of reach (an outage) is waited out; a batch it keeps refusing is let go rather
        // than holding up every page. The deliveries are above the mark, so the next writer reads them
        // from the outbox.
        if (this.closed || (!unreachable(error) && ++failures === ATTEMPTS)) {
          this.queue.splice(0, batch.length);
          failures = 0;
          await this.insertEach(batch, error as Error);
          continue;
        }
        this.logger.warn('could not write deliveries to the receivers ledger; trying again', { error: (error as Error).message });
        await sleep(this.retryMs);
      }
    }
  }

  /** A batch that kept failing, one delivery at a time: a delivery PostgreSQL refuses costs only itself. */
  private async insertEach(batch: readonly Row[], error: Error): Promise<void> {
    const left: number[] = [];
    for (const row of batch) await this.insert([row]).catch(() => left.push(row.seq));
    if (left.length === 0) return;
    this.logger.error('deliveries were not written to the receivers ledger: listed again after the next start', {
      deliveries: left.length,
      seqs: left.length > 10 ? `${left[0]}..${left.at(-1)}` : left.join(' '),
      error: error.message,
    });
  }

  private async insert(rows: readonly Row[]): Promise<void> {
    await this.pool.query(statement('ledger-add'), [
      rows.map((row) => row.receiver),
      rows.map((row) => row.seq),
      rows.map((row) => row.delivery),
      rows.map((row) => row.type),
      rows.map((row) => new Date(row.published)),
    ]);
  }

  private async catchUp(): Promise<void> {
    // Asked first, before the node takes any write (startLoading is called before it serves): every
    // delivery up to it was committed by an earlier writer, and every later one is told to this one.
    const [max] = await this.store.select(this.queries.text('notify/delivery-seq-max'));
    const highest = Number(max?.get('max')?.value ?? 0);
    const marked = await this.pool.query<{ complete_upto: string }>(statement('ledger-mark'));
    let from = Number(marked.rows[0]?.complete_upto ?? 0);
    if (from > highest) {
      // Another data space's ledger, or the store was emptied: the outbox is what the ledger follows.
      this.logger.warn('the receivers ledger is ahead of the outbox; reading it again', { ledger: from, outbox: highest });
      await this.pool.query(statement('ledger-clear'));
      from = 0;
    }
    const started = Date.now();
    const size = this.store.rowCap ?? Number.MAX_SAFE_INTEGER;
    const range = (after: number) =>
      this.store.select(this.queries.bind('notify/ledger-page', { after: int(after), upto: int(Math.min(after + size, highest)) }));
    let read = 0;
    // A range of seqs at a time, the next one read while this one is inserted: memory stays two pages
    // whatever the outbox holds.
    let next = from < highest ? range(from) : undefined;
    for (let after = from; next;) {
      const rows = await next;
      after = Math.min(after + size, highest);
      next = after < highest ? range(after) : undefined;
      // A later range that fails while this one is inserted must not be an unhandled rejection.
      next?.catch(() => undefined);
      const page = rows.map((row): Row => {
        const value = (name: string) => row.get(name)?.value ?? '';
        return {
          receiver: value('receiver'),
          seq: Number(value('seq')),
          delivery: value('delivery'),
          type: value('type'),
          published: Date.parse(value('published')),
        };
      });
      for (let i = 0; i < page.length; i += BATCH) await this.insert(page.slice(i, i + BATCH));
      read += page.length;
    }
    await this.pool.query(statement('ledger-mark-set'), [highest]);
    if (read > 0)
      this.logger.info('receivers ledger caught up with the outbox', { from, to: highest, deliveries: read, ms: Date.now() - started });
  }
}
