import pg from 'pg';
import { answeringUnavailable } from './postgres-outage.js';
import { statement } from './statements.js';

/** Advisory-lock keys of the node (pg_advisory_lock takes one bigint): one per rule, here only. */
export const LOCKS = {
  /** Held for the schema's set-up: two replicas starting together must not both create a table. */
  schema: 0x64_73_00_01,
  /** Held by each statement that decides which delivery heads its queue (deploy/postgres/delivery-lock.sql). */
  deliveries: 0x64_73_00_02,
} as const;

/** Idle time after which the kernel starts probing a pool connection (TCP keepalive), in ms. */
const KEEPALIVE_IDLE_MS = 10_000;

function pool(databaseUrl: string, options?: string): pg.Pool {
  const made = new pg.Pool({
    connectionString: databaseUrl,
    max: 4,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
    connectionTimeoutMillis: 10_000,
    options,
  });
  // An idle connection the server dropped is reported here; the pool replaces it on the next query.
  made.on('error', () => undefined);
  return answeringUnavailable(made);
}

/**
 * The replicas' pool of PostgreSQL connections, with the schema in place (deploy/postgres/schema.sql,
 * then schema-lease.sql, delivery-schema.sql and activity-id-schema.sql). Connections keep TCP keepalives on so a dead peer is noticed by the kernel,
 * not only by a timeout. Its sessions write for no epoch: the fence lets them through, and the writer
 * writes through `writerPool` instead.
 */
export async function openPostgres(databaseUrl: string): Promise<pg.Pool> {
  const made = pool(databaseUrl);
  const client = await made.connect();
  try {
    await client.query('BEGIN');
    await client.query(statement('schema-lock'), [LOCKS.schema]);
    await client.query(statement('schema'));
    await client.query(statement('schema-lease'));
    await client.query(statement('delivery-schema'));
    await client.query(statement('activity-id-schema'));
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  return made;
}

/**
 * The writer's pool: each session says the epoch it writes for (dataspace.epoch), so PostgreSQL's
 * fence refuses its writes once another replica took the lease; a transaction left open longer than
 * the lease (a frozen process) is ended by the server, so it holds no lock a new writer waits on.
 */
export function writerPool(databaseUrl: string, epoch: number, leaseMs: number): pg.Pool {
  if (!Number.isSafeInteger(epoch)) throw new Error(`not an epoch: ${epoch}`);
  return pool(databaseUrl, `-c dataspace.epoch=${epoch} -c idle_in_transaction_session_timeout=${Math.round(leaseMs)}`);
}
