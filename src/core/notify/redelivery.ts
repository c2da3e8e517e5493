import type { QueryBank } from '../queries/query-bank.js';
import { iri } from '../queries/query-bank.js';
import type { QuadStore } from '../ports/quad-store.js';
import type { Outbox, PendingDelivery } from './outbox.js';
import type { RedeliveryBudget } from './redelivery-budget.js';
import { commitDurably } from '../store/commit-durably.js';

export interface RedeliveryDeps {
  store: QuadStore;
  queries: QueryBank;
  outbox: Outbox;
  budget: RedeliveryBudget;
  /** Hands the requeued delivery to the deliverer (Deliverer.queued), once its commit is durable. */
  queued: (deliveries: PendingDelivery[]) => void;
  now?: () => number;
}

/** What asking for a signal again came to: an expected outcome, a value (the route turns it into a status). */
export type RedeliveryOutcome =
  | { kind: 'queued'; signal: string; receiver: string }
  | { kind: 'not-sent' }
  | { kind: 'pending' }
  | { kind: 'throttled'; retryAfterMs: number };

/**
 * Queues a signal already sent to an organisation once more, to the endpoint it has registered now:
 * the same signal id and body (so the webhook id and signature stay meaningful, and a receiver that
 * dedups on the id sees a repeat), delivered by the one deliverer with its retries and ordering.
 */
export class Redelivery {
  private readonly now: () => number;

  constructor(private readonly deps: RedeliveryDeps) {
    this.now = deps.now ?? Date.now;
  }

  async request(receiver: string, signal: string): Promise<RedeliveryOutcome> {
    const [row] = await this.deps.store.select(
      this.deps.queries.bind('notify/delivery-of-signal', { signal: iri(signal), receiver: iri(receiver) }),
    );
    if (!row) return { kind: 'not-sent' };
    // Still queued or being retried: it goes out without asking, and twice in a queue would repeat it.
    if (row.get('state')?.value === 'pending') return { kind: 'pending' };
    const now = this.now();
    const retryAfterMs = this.deps.budget.take(receiver, now);
    if (retryAfterMs > 0) return { kind: 'throttled', retryAfterMs };
    const delivery: PendingDelivery = {
      delivery: row.get('delivery')!.value,
      receiver,
      consignment: row.get('consignment')!.value,
      seq: Number(row.get('seq')!.value),
      attempts: 0,
      queuedAt: now,
      nextAttempt: now,
    };
    try {
      await commitDurably(this.deps.store, { ops: this.deps.outbox.requeueOps(delivery, new Date(now)) });
    } catch (error) {
      this.deps.budget.giveBack(receiver);
      throw error;
    }
    this.deps.queued([delivery]);
    return { kind: 'queued', signal, receiver };
  }
}
