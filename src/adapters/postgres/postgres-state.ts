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

/** Idle time after which the kernel starts probing a pool connection (TCP keepalive), in ms, without a bound. */
const KEEPALIVE_IDLE_MS = 10_000;

/**
 * How long a pool's statement, and its wait for a connection, may take (docs/replicas.md "Lease and
 * keepalive settings"): a replica passes DATASPACE_REPLICA_LEASE_MS. A statement sent into a cut route
 * is otherwise answered by nobody until the kernel gives up (about 15 minutes): with the bound it fails
 * (`Query read timeout`, its connection dropped), a read answers 503 and a write is tried again. The
 * server ends it too (statement_timeout), so nothing the client gave up on keeps running there.
 */
export interface PoolBounds {
  statementMs: number;
}

/**
 * The least bound a pool's statement gets, whatever the lease: on a loaded machine the event loop can
 * hold an answer that came in time for seconds, and pg's bound (a plain timer) then gives it up; a
 * replica's start that fails so exits.
 */
const LEAST_STATEMENT_MS = 5_000;

function pool(databaseUrl: string, bounds: PoolBounds | undefined, options?: string): pg.Pool {
  const statementMs = bounds && Math.max(bounds.statementMs, LEAST_STATEMENT_MS);
  const made = new pg.Pool({
    connectionString: databaseUrl,
    max: 4,
    keepAlive: true,
    // An idle connection whose peer went away is probed, and dropped, within a lease.
    keepAliveInitialDelayMillis: bounds?.statementMs ?? KEEPALIVE_IDLE_MS,
    connectionTimeoutMillis: statementMs ?? 10_000,
    // A session left in a transaction by a replica cut off or frozen between two statements would hold
    // its locks (the deliveries' queue lock among them) for every other replica: the server ends it.
    ...(statementMs
      ? { query_timeout: statementMs, statement_timeout: statementMs, idle_in_transaction_session_timeout: statementMs }
      : {}),
    options,
  });
  // An idle connection the server dropped is reported here; the pool replaces it on the next query.
  made.on('error', () => undefined);
  return answeringUnavailable(made);
}

/**
 * The replicas' pool of PostgreSQL connections, with the schema in place (deploy/postgres/schema.sql,
 * then schema-lease.sql, delivery-schema.sql and activity-id-schema.sql). Connections keep TCP keepalives on so a dead peer is noticed by the kernel,
 * and with `bounds` no statement waits longer than its bound. Its sessions write for no epoch: the fence lets them through, and the writer
 * writes through `writerPool` instead.
 */
export async function openPostgres(databaseUrl: string, bounds?: PoolBounds): Promise<pg.Pool> {
  await underSchemaLock(databaseUrl, ['schema', 'schema-lease', 'delivery-schema', 'activity-id-schema']);
  return pool(databaseUrl, bounds);
}

/**
 * Runs the schema files `names` in one transaction under the schema lock, which every replica takes
 * for its set-up, on a connection of its own without the pools' bounds: one replica may wait there for
 * another's set-up, and a start on a loaded machine must not fail on a bound.
 */
export async function underSchemaLock(databaseUrl: string, names: readonly string[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await schemaTransaction(databaseUrl, names);
      return;
    } catch (error) {
      // The schema's statements lock tables the set's running replicas use, in their own order:
      // PostgreSQL may end the set-up as a deadlock's victim (40P01), which a new attempt gets past.
      if ((error as { code?: string }).code !== '40P01' || attempt === SCHEMA_ATTEMPTS) throw error;
      await new Promise((ok) => setTimeout(ok, 100 * attempt + Math.random() * 100));
    }
  }
}

/** How many times a replica's schema set-up is tried when PostgreSQL ends it as a deadlock's victim. */
const SCHEMA_ATTEMPTS = 5;

async function schemaTransaction(databaseUrl: string, names: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, keepAlive: true, connectionTimeoutMillis: 10_000 });
  // A session that ends while idle is reported here; the statement under way fails with it.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(statement('schema-lock'), [LOCKS.schema]);
    for (const name of names) await client.query(statement(name));
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The writer's pool: each session says the epoch it writes for (dataspace.epoch), so PostgreSQL's
 * fence refuses its writes once another replica took the lease; a transaction left open longer than
 * the lease (a frozen process) is ended by the server (`pool`), so it holds no lock a new writer waits on.
 */
export function writerPool(databaseUrl: string, epoch: number, leaseMs: number): pg.Pool {
  if (!Number.isSafeInteger(epoch)) throw new Error(`not an epoch: ${epoch}`);
  return pool(databaseUrl, { statementMs: Math.round(leaseMs) }, `-c dataspace.epoch=${epoch}`);
}
