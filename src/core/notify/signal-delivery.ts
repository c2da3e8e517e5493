import type { PendingDelivery } from './outbox.js';

/**
 * The port signals go out through (docs/signals.md): deliveries a durable commit queued are handed
 * over, and each is sent at least once, a consignment's signals to one receiver in the order they
 * were raised. A single node delivers in its own process, its queues in memory (deliverer.ts); a
 * replica set from every replica, claiming deliveries in PostgreSQL (replicas/signals/).
 */
export interface SignalDelivery {
  /** Begins delivering, starting with whatever a previous run left pending. */
  start(): void;
  /** Deliveries a durable commit queued (or queued again: a redelivery), in commit order. */
  queued(deliveries: readonly PendingDelivery[]): void;
  /** An organisation changed its endpoint: what waits for it is tried again now, not after its backoff. */
  endpointChanged(receiver: string): void;
  /** Deliveries waiting and when the oldest of them was queued (metrics; no query). */
  waiting(): { count: number; oldestQueuedAt: number | undefined };
  /** Stops: attempts under way are abandoned (they stay pending) and awaited. */
  stop(): Promise<void>;
}
