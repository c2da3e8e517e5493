import type { QueryBank } from '../queries/query-bank.js';
import { int, iri } from '../queries/query-bank.js';
import type { Bindings, QuadStore } from '../store/quad-store.js';
import { deliveryProgress, type DeliveryProgress } from './outbox.js';

/** One signal queued for the caller's notification endpoint, as the receiver may see it. */
export interface ReceivedDelivery extends DeliveryProgress {
  /** The consignment the signal is about: every signal carries its globalId, so the receiver knows it already. */
  globalId: string;
  seq: number;
}

const value = (row: Bindings, name: string): string | undefined => row.get(name)?.value;

/**
 * The deliveries made (or still to be made) to one organisation's endpoint, newest first. What a
 * receiver sees here is what it was sent: receiving a signal grants no read of the consignment.
 */
export class ReceivedDeliveries {
  constructor(private readonly store: QuadStore, private readonly queries: QueryBank) {}

  /** Up to `limit` deliveries to `receiver` older than delivery seq `before` (all when omitted). */
  async page(receiver: string, limit: number, before = Number.MAX_SAFE_INTEGER): Promise<ReceivedDelivery[]> {
    const rows = await this.store.select(this.queries.bind('notify/deliveries-to-receiver', { receiver: iri(receiver), before: int(before), limit: int(limit) }));
    return rows.map((row) => {
      const progress = deliveryProgress(row);
      // Only a pending delivery has a next attempt to show.
      const { nextAttempt, ...rest } = progress;
      return { ...rest, ...(progress.state === 'pending' && nextAttempt !== undefined ? { nextAttempt } : {}), globalId: value(row, 'globalId')!, seq: Number(value(row, 'seq')) };
    });
  }
}
