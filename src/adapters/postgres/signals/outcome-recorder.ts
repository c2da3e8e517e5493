import { systemEventNote, type ChangeNote } from '../../../core/catalog/change-notes.js';
import type { Logger } from '../../../core/logger.js';
import { signalEventOps } from '../../../core/notify/attempt-outcome.js';
import type { Outbox } from '../../../core/notify/outbox.js';
import { iri, list, type QueryBank } from '../../../core/queries/query-bank.js';
import { stamp } from '../../../core/rdf/date-times.js';
import type { Registry } from '../../../core/registry/registry.js';
import { commitDurably } from '../../../core/store/commit-durably.js';
import type { ChangeOp, QuadStore } from '../../../core/ports/quad-store.js';
import type { DeliveryRows, OutcomeRow } from './delivery-rows.js';

/** Outcomes recorded in one commit, at most. */
const BATCH = 100;
/** How long a delivery made stays in PostgreSQL once the store has its outcome. */
const KEEP_MS = 60 * 60 * 1000;
/** Rounds between two counts of what waits (metrics), and between two prunes. */
const COUNT_EVERY = 20;
const PRUNE_EVERY = 200;

export interface RecorderDeps {
  rows: DeliveryRows;
  store: QuadStore;
  queries: QueryBank;
  outbox: Outbox;
  registry: Registry;
  nodeName: string;
  allocateSeq: () => number;
  logger: Logger;
  pollMs: number;
}

/**
 * The writer's part in a set's signals: the outcomes every replica wrote in PostgreSQL go into the
 * store's outbox (a delivery's state, attempts, last status and error, what GET …/deliveries shows)
 * with a SIGNAL_DELIVERED or SIGNAL_FAILED system event on the consignment for each delivery made,
 * as the in-process deliverer commits them. A batch is committed, then marked recorded; one already
 * in the store (a writer died between the two) is only marked.
 */
export class OutcomeRecorder {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private rounds = 0;
  private stopped = false;
  /** Deliveries waiting, as last counted, for the metrics. */
  waiting: { count: number; oldestQueuedAt: number | undefined } = { count: 0, oldestQueuedAt: undefined };

  constructor(private readonly deps: RecorderDeps) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), this.deps.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Records what is unrecorded now; a call while a round runs makes it run once more. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round()
      .catch((error: unknown) =>
        this.deps.logger.warn('could not record signal outcomes in the store: trying again', { error: (error as Error).message }),
      )
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async round(): Promise<void> {
    for (;;) {
      const batch = await this.deps.rows.unrecorded(BATCH);
      if (batch.length > 0) await this.record(batch);
      if (batch.length < BATCH || this.stopped) break;
    }
    const round = this.rounds++;
    if (round % COUNT_EVERY === 0) this.waiting = await this.deps.rows.waiting();
    if (round % PRUNE_EVERY === 0) await this.deps.rows.prune(KEEP_MS);
  }

  private async record(batch: readonly OutcomeRow[]): Promise<void> {
    const stored = await this.inStore(batch);
    const ops: ChangeOp[] = [];
    const notes: ChangeNote[] = [];
    for (const row of batch) {
      if (stored.has(row)) continue;
      ops.push(...this.deps.outbox.recordOps(row.delivery, row.recorded));
      const { recorded, details } = row;
      if (recorded.state !== 'pending' && details) {
        const context = { registry: this.deps.registry, nodeName: this.deps.nodeName, seq: this.deps.allocateSeq() };
        ops.push(...signalEventOps(row.delivery, details, recorded, context));
        // A system event changes the consignment's read view: the note tells the change feed's followers.
        notes.push(systemEventNote(details.consignment));
      }
    }
    if (ops.length > 0) await commitDurably(this.deps.store, { ops, notes });
    await this.deps.rows.recorded(batch);
  }

  /** The rows whose outcome the outbox has already: the same state, attempts and attempt time. */
  private async inStore(batch: readonly OutcomeRow[]): Promise<Set<OutcomeRow>> {
    const query = this.deps.queries.bind('notify/delivery-progress', { deliveries: list(batch.map((row) => iri(row.delivery.delivery))) });
    const found = new Map<string, string>();
    for (const row of await this.deps.store.select(query)) {
      const key = [row.get('state')?.value, row.get('attempts')?.value, row.get('lastAttempt')?.value ?? ''].join(' ');
      found.set(row.get('delivery')!.value, key);
    }
    const stored = new Set<OutcomeRow>();
    for (const row of batch) {
      const key = [row.recorded.state, String(row.delivery.attempts + 1), stamp(row.recorded.at)].join(' ');
      if (found.get(row.delivery.delivery) === key) stored.add(row);
    }
    return stored;
  }
}
