import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { DelivererDeps } from '../../../core/notify/deliverer.js';
import type { PendingDelivery } from '../../../core/notify/outbox.js';
import type { SignalDelivery } from '../../../core/notify/signal-delivery.js';
import { storeRetryDelay } from '../../../core/notify/store-retry.js';
import { WebhookSender } from '../../../core/notify/webhook-sender.js';
import type { QueryBank } from '../../../core/queries/query-bank.js';
import { ClaimingDeliverer } from './claiming-deliverer.js';
import { DeliveryRows } from './delivery-rows.js';
import { OutcomeRecorder } from './outcome-recorder.js';

/** How often every replica looks at the queues whatever it heard: what another replica entered, let go or left to expire. */
export const CLAIM_POLL_MS = 250;
/** Deliveries one catch-up statement enters. */
const CATCH_UP_BATCH = 1_000;

export interface SetDeliveryOptions {
  pool: pg.Pool;
  /** This replica, as its claims name it. */
  holder: string;
  /** DATASPACE_REPLICA_LEASE_MS: a claim holds an attempt's time-out and this much more. */
  leaseMs: number;
}

/** How long a claim holds: an attempt runs to its time-out, and then its outcome is written. */
export const claimMs = (timeoutMs: number, leaseMs: number): number => timeoutMs + leaseMs;

function claimer(deps: DelivererDeps, options: SetDeliveryOptions, rows: DeliveryRows, written?: () => void): ClaimingDeliverer {
  return new ClaimingDeliverer({
    rows,
    holder: options.holder,
    claimMs: claimMs(deps.config.timeoutMs, options.leaseMs),
    pollMs: CLAIM_POLL_MS,
    outbox: deps.outbox,
    sender: new WebhookSender(deps),
    config: deps.config,
    logger: deps.logger,
    now: deps.now,
    random: deps.random,
    onRecorded: deps.onRecorded,
    written,
  });
}

/**
 * A follower's signal delivery: it claims and sends as every replica does; it queues nothing (its
 * store commits nothing) and records nothing in the store (the writer does).
 */
export function followerDeliveries(deps: DelivererDeps, options: SetDeliveryOptions): SignalDelivery {
  const claiming = claimer(deps, options, new DeliveryRows(options.pool));
  return {
    start: () => claiming.start(),
    queued: () => {
      throw new Error('a replica that does not hold the writer lease queues no signal: its writes go to the writer');
    },
    endpointChanged: () => claiming.pass(),
    waiting: () => ({ count: claiming.sending, oldestQueuedAt: undefined }),
    stop: () => claiming.stop(),
  };
}

export interface WriterDeliveryOptions extends SetDeliveryOptions {
  /** A PostgreSQL write run until it is answered (replica-set.ts). */
  retry: <T>(write: () => Promise<T>, what: string) => Promise<T>;
  /** Told when deliveries the store committed cannot be entered: the writer stops, the next one enters them. */
  lost: (reason: string) => void;
  queries: QueryBank;
}

/**
 * The writer's signal delivery: it enters in PostgreSQL the deliveries its commits queued, in commit
 * order (after entering, at start, what the outbox holds pending that a writer before it had not),
 * claims and sends as every replica does, and records every replica's outcomes in the store.
 */
export class WriterDeliveries implements SignalDelivery {
  private readonly rows: DeliveryRows;
  private readonly claiming: ClaimingDeliverer;
  private readonly recorder: OutcomeRecorder;
  /** Entering deliveries, one batch behind another, behind the catch-up: a queue's order is its seqs'. */
  private tail: Promise<void>;
  private begin!: () => void;
  private readonly stopping = new AbortController();

  constructor(
    private readonly deps: DelivererDeps,
    private readonly options: WriterDeliveryOptions,
  ) {
    this.rows = new DeliveryRows(options.pool);
    this.recorder = new OutcomeRecorder({ ...deps, rows: this.rows, queries: options.queries, pollMs: CLAIM_POLL_MS });
    this.claiming = claimer(deps, options, this.rows, () => this.recorder.wake());
    // Deliveries queued before start wait for the catch-up too.
    this.tail = new Promise<void>((ok) => (this.begin = ok))
      .then(() => this.catchUp())
      .then(() => {
        if (this.stopping.signal.aborted) return;
        this.claiming.start();
        this.recorder.start();
      });
  }

  start(): void {
    this.begin();
  }

  queued(deliveries: readonly PendingDelivery[]): void {
    const batch = [...deliveries];
    this.tail = this.tail
      .then(() => this.options.retry(() => this.rows.add(batch), 'signal deliveries'))
      .then(
        () => this.claiming.pass(),
        (error: unknown) => this.options.lost(`signal deliveries could not be entered for the replicas: ${(error as Error).message}`),
      );
  }

  endpointChanged(receiver: string): void {
    this.rows.endpointChanged(receiver).then(
      () => this.claiming.pass(),
      (error: unknown) => this.deps.logger.warn('could not hurry the signals of a changed endpoint', { error: (error as Error).message }),
    );
  }

  waiting(): { count: number; oldestQueuedAt: number | undefined } {
    return this.recorder.waiting;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.begin();
    await this.tail;
    await this.claiming.stop();
    await this.recorder.stop();
  }

  /** What the outbox holds pending enters PostgreSQL before any new delivery: tried until the store and PostgreSQL answer. */
  private async catchUp(): Promise<void> {
    for (let failures = 1; !this.stopping.signal.aborted; failures++) {
      try {
        const pending = await this.deps.outbox.pending();
        pending.sort((a, b) => a.seq - b.seq);
        for (let i = 0; i < pending.length; i += CATCH_UP_BATCH) await this.rows.catchUp(pending.slice(i, i + CATCH_UP_BATCH));
        if (pending.length > 0) this.deps.logger.info('signal deliveries entered from the outbox', { pending: pending.length });
        return;
      } catch (error) {
        this.deps.logger.warn('could not enter the outbox’s pending signals: trying again', { error: (error as Error).message });
        await sleep(storeRetryDelay(failures, this.deps.config.baseMs), undefined, { signal: this.stopping.signal }).catch(() => undefined);
      }
    }
  }
}
