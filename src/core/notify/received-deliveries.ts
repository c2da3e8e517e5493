import type { QueryBank } from '../queries/query-bank.js';
import { iri, list } from '../queries/query-bank.js';
import type { Bindings, QuadStore } from '../ports/quad-store.js';
import type { WalkLimits } from '../util/filtered-walk.js';
import { deliveryProgress, type DeliveryProgress } from './outbox.js';
import type { LedgerFilter, ReceiverLedger } from '../ports/receiver-ledger.js';

/** One signal queued for the caller's notification endpoint, as the receiver may see it. */
export interface ReceivedDelivery extends DeliveryProgress {
  /** The consignment the signal is about: every signal carries its globalId, so the receiver knows it already. */
  globalId: string;
  seq: number;
}

/** One page of a receiver's deliveries, and the seq the next page starts below when there may be more. */
export interface ReceivedPage {
  items: ReceivedDelivery[];
  next?: number;
}

export interface ReceivedDeliveriesDeps {
  store: QuadStore;
  queries: QueryBank;
  /** Each receiver's deliveries by seq: the signals follower tells it each commit's (signals-follower.ts). */
  ledger: ReceiverLedger;
  /** The globalId of a stored consignment (the consignment index's). */
  globalIdOf: (consignment: string) => Promise<string | undefined>;
  /** Entries a page looks at, kept or not, before it is answered as it stands. */
  examine?: number;
}

const value = (row: Bindings, name: string): string | undefined => row.get(name)?.value;

/**
 * The deliveries made (or still to be made) to one organisation's endpoint, newest first. What a
 * receiver sees here is what it was sent: receiving a signal grants no read of the consignment.
 */
export class ReceivedDeliveries {
  constructor(private readonly deps: ReceivedDeliveriesDeps) {}

  /**
   * Up to `limit` deliveries to `receiver` below delivery seq `before` (all when omitted) whose signals
   * pass `filter`. A page that looked at its share of entries first has fewer items and a `next`.
   */
  async page(receiver: string, filter: LedgerFilter, limit: number, before = Number.MAX_SAFE_INTEGER): Promise<ReceivedPage> {
    const limits: WalkLimits = { items: limit, examine: this.deps.examine ?? 20_000, slice: 1_000 };
    const chosen = await this.deps.ledger.page(receiver, filter, before, limits);
    if (chosen.items.length === 0) return { items: [], next: chosen.next };
    const rows = await this.deps.store.select(
      this.deps.queries.bind('notify/deliveries-listed', { deliveries: list(chosen.items.map((entry) => iri(entry.delivery))) }),
    );
    const items: ReceivedDelivery[] = [];
    for (const row of rows) {
      const globalId = await this.deps.globalIdOf(value(row, 'consignment')!);
      if (globalId !== undefined) items.push(received(row, globalId));
    }
    items.sort((a, b) => b.seq - a.seq);
    return { items, next: chosen.next };
  }
}

function received(row: Bindings, globalId: string): ReceivedDelivery {
  const progress = deliveryProgress(row);
  // Only a pending delivery has a next attempt to show; otherwise the field is left out, not null.
  const { nextAttempt, ...rest } = progress;
  return {
    ...rest,
    ...(progress.state === 'pending' && nextAttempt !== undefined ? { nextAttempt } : {}),
    globalId,
    seq: Number(value(row, 'seq')),
  };
}
