import type { QueryBank } from '../queries/query-bank.js';
import { dateTime, int, iri, str } from '../queries/query-bank.js';
import type { Bindings, QuadStore } from '../store/quad-store.js';
import { deliveryProgress, type DeliveryProgress } from './outbox.js';

/** One signal queued for the caller's notification endpoint, as the receiver may see it. */
export interface ReceivedDelivery extends DeliveryProgress {
  /** The consignment the signal is about: every signal carries its globalId, so the receiver knows it already. */
  globalId: string;
  seq: number;
}

/** Which of the deliveries to a receiver a list shows: a signal type, and a span of publication times. */
export interface ReceivedFilter {
  type?: string;
  /** Published at or after (ISO 8601). */
  since?: string;
  /** Published before (ISO 8601). */
  until?: string;
}

const value = (row: Bindings, name: string): string | undefined => row.get(name)?.value;

/**
 * The deliveries made (or still to be made) to one organisation's endpoint, newest first. What a
 * receiver sees here is what it was sent: receiving a signal grants no read of the consignment.
 */
export class ReceivedDeliveries {
  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
  ) {}

  /** Up to `limit` deliveries to `receiver` older than delivery seq `before` (all when omitted). */
  async page(receiver: string, limit: number, before = Number.MAX_SAFE_INTEGER): Promise<ReceivedDelivery[]> {
    const rows = await this.store.select(
      this.queries.bind('notify/deliveries-to-receiver', { receiver: iri(receiver), before: int(before), limit: int(limit) }),
    );
    return rows.map(received);
  }

  /** Like page(), only the deliveries of signals that pass `filter` (GET /signals). */
  async filtered(receiver: string, filter: ReceivedFilter, limit: number, before = Number.MAX_SAFE_INTEGER): Promise<ReceivedDelivery[]> {
    const rows = await this.store.select(
      this.queries.bind('notify/signals-to-receiver', {
        receiver: iri(receiver),
        before: int(before),
        limit: int(limit),
        type: str(filter.type ?? ''),
        since: dateTime(filter.since ?? '0001-01-01T00:00:00Z'),
        until: dateTime(filter.until ?? '9999-12-31T23:59:59Z'),
      }),
    );
    return rows.map(received);
  }
}

function received(row: Bindings): ReceivedDelivery {
  const progress = deliveryProgress(row);
  // Only a pending delivery has a next attempt to show; otherwise the field is left out, not null.
  const { nextAttempt, ...rest } = progress;
  return {
    ...rest,
    ...(progress.state === 'pending' && nextAttempt !== undefined ? { nextAttempt } : {}),
    globalId: value(row, 'globalId')!,
    seq: Number(value(row, 'seq')),
  };
}
