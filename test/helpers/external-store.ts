import pg from 'pg';
import { createLogger } from '../../src/core/logger.js';
import type { OwnState } from '../../src/own-state.js';
import { joinReplicaSet } from '../../src/adapters/postgres/replica-set.js';

/**
 * Runs the HTTP suite against an external SPARQL store: set DATASPACE_TEST_SPARQL_URL (query and
 * update on one URL, as Virtuoso serves them) and every TestNode with a fresh data dir uses that
 * server, after removing what earlier nodes wrote there (the graphs under urn:, never the server's own).
 */
export const externalSparqlUrl = (): string | undefined => process.env.DATASPACE_TEST_SPARQL_URL || undefined;

export function externalStoreEnv(): Record<string, string> {
  const url = externalSparqlUrl();
  return url ? { DATASPACE_STORE: 'sparql', DATASPACE_SPARQL_QUERY_URL: url, DATASPACE_SPARQL_UPDATE_URL: url } : {};
}

const CLEAR = 'DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } FILTER (STRSTARTS(STR(?g), "urn:")) }';

async function updateExternalStore(update: string): Promise<void> {
  const url = externalSparqlUrl();
  if (!url) return;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ update }),
  });
  if (!res.ok) throw new Error(`updating the external store: ${res.status} ${await res.text()}`);
}

export async function clearExternalStore(): Promise<void> {
  await updateExternalStore(CLEAR);
}

/**
 * With DATASPACE_TEST_DATABASE_URL as well (a PostgreSQL cluster's URL), every TestNode keeps what it
 * holds outside its graphs (documents' files, the JWT secret, failed-login counters) as a replica set's,
 * in PostgreSQL: one database per data dir, so a node started again on the same dir finds its state,
 * and a node on a new dir starts empty.
 */
const replicaDatabases = new Map<string, string>();

/** The PostgreSQL database of the replica set a TestNode on `dataDir` joined, if it joined one. */
export const replicaDatabaseUrl = (dataDir: string): string | undefined => replicaDatabases.get(dataDir);

export async function replicaOwnState(dataDir: string): Promise<OwnState | undefined> {
  const cluster = process.env.DATASPACE_TEST_DATABASE_URL;
  if (!cluster) return undefined;
  let databaseUrl = replicaDatabases.get(dataDir);
  if (!databaseUrl) {
    const name = `node_${replicaDatabases.size + 1}`;
    const client = new pg.Client({ connectionString: cluster });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${name}`);
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    const url = new URL(cluster);
    url.pathname = `/${name}`;
    databaseUrl = url.href;
    replicaDatabases.set(dataDir, databaseUrl);
    // A new data dir is a new set on the shared test store, which may still hold an earlier node's
    // graphs (a dir given to its first start is not cleared): its set identity goes, or the replica
    // would rightly refuse the store as another set's.
    await updateExternalStore('DROP SILENT GRAPH <urn:dataspace:replica>');
  }
  const logger = createLogger('silent');
  const sparql = {
    queryUrl: externalSparqlUrl()!,
    updateUrl: externalSparqlUrl()!,
    user: undefined,
    password: undefined,
    timeoutMs: 30_000,
  };
  return joinReplicaSet({ databaseUrl, checkMs: 1000, leaseMs: 3000, takeoverMs: 0 }, sparql, logger, {
    standby: () => {
      throw new Error(`another test node holds the writer lease of ${dataDir}`);
    },
    lost: (reason) => console.error(`a test node lost its writer lease: ${reason}`),
  });
}
