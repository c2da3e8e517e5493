import type { WalkLimits, WalkPage } from '../util/filtered-walk.js';

/** One delivery as a receiver's list walks it. */
export interface LedgerEntry {
  seq: number;
  delivery: string;
  type: string;
  /** The signal's publication time (ms since the epoch). */
  published: number;
}

/** Which of a receiver's deliveries a list shows: a signal type, and a span of publication times (ms). */
export interface LedgerFilter {
  type?: string;
  /** Published at or after. */
  since?: number;
  /** Published before. */
  until?: number;
}

/**
 * Every delivery queued for each receiver, by sequence number: what GET /signals and the console's
 * deliveries page walk, so a page costs the page and not the receiver's history. Filled from the
 * outbox at start and told each commit's new deliveries by the signals follower; a delivery's seq,
 * receiver, type and publication never change (a redelivery keeps them), so nothing else needs telling.
 * A single node keeps it in memory (memory-ledger.ts), a replica set in PostgreSQL
 * (adapters/postgres/postgres-ledger.ts); both answer the same pages.
 */
export interface ReceiverLedger {
  /** Reads the outbox without waiting for it; a page waits. */
  startLoading(): Promise<void>;
  /** A delivery a commit queued; one already known (read at start as well) is kept once. */
  add(receiver: string, entry: LedgerEntry): void;
  /**
   * One page of `receiver`'s deliveries that pass `filter`, newest first, below seq `before`: at most
   * `limits.items`, out of at most `limits.examine` looked at. `next` is the last item's seq when more
   * may pass, or the last seq looked at when the page stopped at `limits.examine`.
   */
  page(receiver: string, filter: LedgerFilter, before: number, limits: WalkLimits): Promise<WalkPage<LedgerEntry, number>>;
}
