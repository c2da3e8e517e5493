import type { QueryBank } from '../queries/query-bank.js';
import { int, iri } from '../queries/query-bank.js';
import type { Bindings, QuadStore } from '../store/quad-store.js';
import type { DeliveryState } from './outbox.js';
import type { SignalType } from './signals.js';

/** One signal queued for the caller's notification endpoint, as the receiver may see it. */
export interface ReceivedDelivery {
  signal: string;
  type: SignalType;
  published: string;
  /** The consignment the signal is about: every signal carries its globalId, so the receiver knows it already. */
  globalId: string;
  state: DeliveryState;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastAttempt: string | null;
  nextAttempt: string | null;
  completed: string | null;
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
      const lastStatus = value(row, 'lastStatus');
      return {
        signal: value(row, 'signal')!,
        type: value(row, 'type') as SignalType,
        published: value(row, 'published')!,
        globalId: value(row, 'globalId')!,
        state: value(row, 'state') as DeliveryState,
        attempts: Number(value(row, 'attempts')),
        lastStatus: lastStatus === undefined ? null : Number(lastStatus),
        lastError: value(row, 'lastError') ?? null,
        lastAttempt: value(row, 'lastAttempt') ?? null,
        nextAttempt: value(row, 'state') === 'pending' ? value(row, 'nextAttempt') ?? null : null,
        completed: value(row, 'completed') ?? null,
        seq: Number(value(row, 'seq')),
      };
    });
  }
}
