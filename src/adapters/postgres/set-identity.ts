import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from '../../core/logger.js';
import { str, type QueryBank } from '../../core/queries/query-bank.js';
import type { SparqlStore } from '../sparql-server/sparql-store.js';
import { statement } from './statements.js';

/** This replica's store and database are not one set's: it must not start. */
export class SetMismatch extends Error {}

interface Places {
  /** The SPARQL server, as the log may show it. */
  store: string;
  /** The database, without its credentials. */
  database: string;
}

/** `postgres://user:secret@host:5432/db` → `host:5432/db`: what the log may say of a database. */
export function databaseName(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.host}${url.pathname}`;
}

async function storeIdentity(store: SparqlStore, queries: QueryBank): Promise<string | undefined> {
  const rows = await store.select(queries.text('replicas/set-identity'));
  if (rows.length > 1) throw new SetMismatch(`the store holds ${rows.length} replica set identities; it holds one`);
  return rows[0]?.get('identity')?.value;
}

/**
 * Checks that the store and PostgreSQL carry one replica set's identity, and gives a new set one: a
 * uuid kept in dataspace_set and as a triple in the store's graph urn:dataspace:replica. Throws
 * SetMismatch, naming both, when they differ or one of them has none while the other has the
 * set's: the same database with another store, or the same store with another database, would each
 * write over what the other set's replicas decide on. A first start cut off between the two writes
 * is finished by the next (`stored` in dataspace_set says whether the store had it).
 */
export async function checkSetIdentity(
  pool: pg.Pool,
  store: SparqlStore,
  queries: QueryBank,
  places: Places,
  logger: Logger,
): Promise<string> {
  const read = async () => (await pool.query<{ identity: string; stored: boolean }>(statement('set-identity'))).rows[0];
  let row = await read();
  let inStore = await storeIdentity(store, queries);
  const refuse = (why: string) =>
    new SetMismatch(
      `this replica's store and database are not one replica set's: the SPARQL server ${places.store} holds set ${inStore ?? '(none)'}, ` +
        `PostgreSQL ${places.database} holds set ${row?.identity ?? '(none)'}; ${why}`,
    );
  if (row === undefined && inStore !== undefined)
    throw refuse("the store belongs to another set (or this database is new): give this replica that set's database");
  if (row === undefined) {
    await pool.query(statement('set-identity-make'), [`urn:uuid:${randomUUID()}`]);
    row = (await read())!;
    logger.info('a new replica set', { set: row.identity });
  }
  if (inStore === undefined && row.stored)
    throw refuse("the database belongs to another set (or this store is new): give this replica that set's store");
  if (inStore === undefined) {
    await store.updateNow(queries.bind('replicas/set-identity-put', { identity: str(row.identity) }));
    inStore = await storeIdentity(store, queries);
  }
  if (inStore !== row.identity) throw refuse('each belongs to another set');
  if (!row.stored) await pool.query(statement('set-identity-stored'), [row.identity]);
  return row.identity;
}
