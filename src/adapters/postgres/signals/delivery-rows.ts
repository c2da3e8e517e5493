import type pg from 'pg';
import type { DeliveryDetails, DeliveryState, PendingDelivery, Recorded } from '../../../core/notify/outbox.js';
import { LOCKS } from '../postgres-state.js';
import { statement } from '../statements.js';

/** A delivery's outcome as `dataspace_delivery` holds it, for the writer to record in the store's outbox. */
export interface OutcomeRow {
  delivery: PendingDelivery;
  recorded: Recorded;
  details: DeliveryDetails | undefined;
  version: number;
}

interface Claimed {
  delivery: string;
  receiver: string;
  consignment: string;
  seq: string;
  attempts: number;
  queued_at: Date;
  next_attempt: Date;
}

interface Unrecorded extends Claimed {
  state: DeliveryState;
  last_status: number | null;
  last_error: string | null;
  last_attempt: Date | null;
  completed: Date | null;
  details: DeliveryDetails | null;
  version: string;
}

const pending = (row: Claimed): PendingDelivery => ({
  delivery: row.delivery,
  receiver: row.receiver,
  consignment: row.consignment,
  seq: Number(row.seq),
  attempts: row.attempts,
  queuedAt: row.queued_at.getTime(),
  nextAttempt: row.next_attempt.getTime(),
});

/** The outcome an unrecorded row holds, as the deliverer reached it (attempts before the attempt, as Outbox.recordOps counts). */
function outcomeOf(row: Unrecorded): OutcomeRow {
  const at = row.last_attempt ?? row.queued_at;
  const status = row.last_status ?? undefined;
  const recorded: Recorded =
    row.state === 'delivered'
      ? { state: 'delivered', status: status ?? 0, at }
      : row.state === 'failed'
        ? { state: 'failed', status, error: row.last_error ?? '', at }
        : { state: 'pending', status, error: row.last_error ?? '', at, retryAt: row.next_attempt };
  return {
    delivery: { ...pending(row), attempts: row.attempts - 1 },
    recorded,
    details: row.details ?? undefined,
    version: Number(row.version),
  };
}

/**
 * The statements on `dataspace_delivery` (deploy/postgres/delivery-*.sql): what a replica set's
 * deliverers share. Values go apart from the text, never spliced in.
 */
export class DeliveryRows {
  constructor(private readonly pool: pg.Pool) {}

  /** Deliveries a durable commit queued, or queued again, in commit order. */
  add(deliveries: readonly PendingDelivery[]): Promise<void> {
    return this.locked('delivery-add', [
      deliveries.map((d) => d.delivery),
      deliveries.map((d) => d.receiver),
      deliveries.map((d) => d.consignment),
      deliveries.map((d) => d.seq),
      deliveries.map((d) => new Date(d.queuedAt)),
    ]).then(() => undefined);
  }

  /** What the store's outbox holds as pending, entered by a new writer (delivery-catch-up.sql). */
  catchUp(deliveries: readonly PendingDelivery[]): Promise<void> {
    return this.locked('delivery-catch-up', [
      deliveries.map((d) => d.delivery),
      deliveries.map((d) => d.receiver),
      deliveries.map((d) => d.consignment),
      deliveries.map((d) => d.seq),
      deliveries.map((d) => new Date(d.queuedAt)),
      deliveries.map((d) => d.attempts),
      deliveries.map((d) => new Date(d.nextAttempt)),
    ]).then(() => undefined);
  }

  /** Claims up to `limit` heads of queues for `holder`, for `claimMs`; `busy` receivers are left out. */
  async claim(holder: string, claimMs: number, limit: number, busy: readonly string[]): Promise<PendingDelivery[]> {
    const rows = await this.locked<Claimed>('delivery-claim', [holder, claimMs, limit, busy]);
    return rows.map(pending);
  }

  /** One attempt's outcome, by the replica that claims the delivery; false when its claim was taken since. */
  async outcome(holder: string, d: PendingDelivery, recorded: Recorded, details: DeliveryDetails | undefined): Promise<boolean> {
    const { rowCount } = await this.pool.query(statement('delivery-outcome'), [
      d.delivery,
      holder,
      recorded.state,
      d.attempts + 1,
      recorded.status ?? null,
      recorded.state === 'delivered' ? null : recorded.error,
      recorded.at,
      recorded.state === 'pending' ? recorded.retryAt : null,
      recorded.state === 'pending' ? null : recorded.at,
      details ? JSON.stringify(details) : null,
    ]);
    return rowCount === 1;
  }

  /** Lets `holder`'s claims on `deliveries` go without an outcome, due again in `afterMs`. */
  async release(holder: string, deliveries: readonly string[], afterMs: number): Promise<void> {
    if (deliveries.length > 0) await this.pool.query(statement('delivery-release'), [deliveries, holder, afterMs]);
  }

  async endpointChanged(receiver: string): Promise<void> {
    await this.pool.query(statement('delivery-endpoint'), [receiver]);
  }

  async unrecorded(limit: number): Promise<OutcomeRow[]> {
    const { rows } = await this.pool.query<Unrecorded>(statement('delivery-unrecorded'), [limit]);
    return rows.map(outcomeOf);
  }

  async recorded(outcomes: readonly OutcomeRow[]): Promise<void> {
    await this.pool.query(statement('delivery-recorded'), [outcomes.map((o) => o.delivery.delivery), outcomes.map((o) => o.version)]);
  }

  async prune(olderThanMs: number): Promise<void> {
    await this.pool.query(statement('delivery-prune'), [olderThanMs]);
  }

  async waiting(): Promise<{ count: number; oldestQueuedAt: number | undefined }> {
    const { rows } = await this.pool.query<{ count: number; oldest: Date | null }>(statement('delivery-waiting'));
    return { count: rows[0]?.count ?? 0, oldestQueuedAt: rows[0]?.oldest?.getTime() };
  }

  /** A statement under the queues' lock (delivery-lock.sql), in a transaction of its own. */
  private async locked<R extends pg.QueryResultRow>(name: string, values: unknown[]): Promise<R[]> {
    const client = await this.pool.connect();
    // The server may end the session between two statements (idle_in_transaction_session_timeout after
    // a freeze, a restart): told as an 'error' event, which without a listener would end the process.
    let ended: Error | undefined;
    const end = (error: Error) => (ended = error);
    client.on('error', end);
    try {
      await client.query('BEGIN');
      await client.query(statement('delivery-lock'), [LOCKS.deliveries]);
      const { rows } = await client.query<R>(statement(name), values);
      await client.query('COMMIT');
      return rows;
    } catch (error) {
      ended ??= error as Error;
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.off('error', end);
      // A session that failed is not given back to the pool.
      client.release(ended);
    }
  }
}
