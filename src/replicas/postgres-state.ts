import pg from 'pg';
import { statement } from './statements.js';

/** Advisory-lock keys of the node (pg_advisory_lock takes one bigint): one per rule, here only. */
export const LOCKS = {
  /** Held for the schema's set-up: two replicas starting together must not both create a table. */
  schema: 0x64_73_00_01,
  /** The writer lease (writer-lease.ts). */
  writer: 0x64_73_00_02,
} as const;

/**
 * The replicas' pool of PostgreSQL connections, with the schema in place (deploy/postgres/schema.sql).
 * Connections keep TCP keepalives on so a dead peer is noticed by the kernel, not only by a timeout.
 */
export async function openPostgres(databaseUrl: string): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4, keepAlive: true, connectionTimeoutMillis: 10_000 });
  // An idle connection the server dropped is reported here; the pool replaces it on the next query.
  pool.on('error', () => undefined);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(statement('schema-lock'), [LOCKS.schema]);
    await client.query(statement('schema'));
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  return pool;
}
