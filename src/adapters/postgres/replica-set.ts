import type { Logger } from '../../core/logger.js';
import type { OwnState } from '../../core/ports/own-state.js';
import { int, QueryBank } from '../../core/queries/query-bank.js';
import { SparqlStore } from '../sparql-server/sparql-store.js';
import type { SparqlStoreConfig } from '../sparql-server/sparql-store-config.js';
import { postgresCounters } from './login-counters.js';
import { PostgresActivityIds } from './postgres-activity-ids.js';
import { PostgresBlobs } from './postgres-blobs.js';
import { PostgresCatalog } from './postgres-catalog.js';
import { PostgresChanges } from './postgres-changes.js';
import { PostgresLedger } from './postgres-ledger.js';
import { writeRetry } from './postgres-outage.js';
import { openPostgres, writerPool } from './postgres-state.js';
import type { ReplicaConfig } from './replica-config.js';
import type { PostgresReach } from './postgres-reach.js';
import { confirmLease, leaseConfirmedReplays } from './lease-acknowledgement.js';
import { checkSetIdentity, databaseName } from './set-identity.js';
import { sharedJwtSecret } from './shared-secret.js';
import { WriterLease } from './writer-lease.js';
import { WriterDeliveries } from './signals/set-deliveries.js';

/**
 * Joins the replica set of `config.databaseUrl`: checks that the store and PostgreSQL are one set's,
 * waits on standby until this replica holds the writer lease, records its epoch in the store (so the
 * updates of the writer it replaced apply nothing from then on), then hands over the state every
 * replica shares, written for that epoch (closing it lets the lease go). `lost` is called if another
 * replica takes the lease later.
 */
export async function joinReplicaSet(
  config: ReplicaConfig,
  sparql: SparqlStoreConfig,
  logger: Logger,
  events: { standby: () => void; lost: (reason: string) => void; reach?: PostgresReach },
): Promise<OwnState> {
  const queries = new QueryBank();
  const shared = await openPostgres(config.databaseUrl, { statementMs: config.leaseMs });
  const store = new SparqlStore(sparql, undefined, logger);
  let lease: WriterLease;
  try {
    await checkSetIdentity(shared, store, queries, { store: sparql.updateUrl, database: databaseName(config.databaseUrl) }, logger);
    lease = await WriterLease.acquire(config.databaseUrl, {
      checkMs: config.checkMs,
      leaseMs: config.leaseMs,
      logger,
      standby: events.standby,
      deposed: events.lost,
      reach: events.reach,
    });
    await store.updateNow(queries.bind('replicas/writer-epoch-set', { epoch: int(lease.epoch) }));
    if (lease.previousDied) {
      // An Update the previous writer sent before it stopped may still be running on the server.
      logger.warn('took the writer lease from a replica that stopped without letting it go', { waitMs: config.takeoverMs });
      await new Promise((ok) => setTimeout(ok, config.takeoverMs));
    }
  } finally {
    await store.close();
    await shared.end();
  }
  const pool = writerPool(config.databaseUrl, lease.epoch, config.leaseMs);
  const held = () => lease.held();
  // What a write's answer needs besides: PostgreSQL not silent past /readyz's grace (a cut route), so a
  // new write is refused at once and one in flight is not acknowledged (lease-acknowledgement.ts).
  const confirmed = () => held() && events.reach?.reachable() !== false;
  const retry = writeRetry(logger);
  const ledgers: PostgresLedger[] = [];
  return {
    blobs: new PostgresBlobs(pool),
    jwtSecret: () => sharedJwtSecret(pool),
    loginCounters: postgresCounters(pool),
    catalog: (store, queries, sequence) =>
      new PostgresCatalog(
        pool,
        store,
        queries,
        () => sequence.high,
        events.lost,
        retry,
        () => confirmLease(confirmed),
      ),
    changes: () => new PostgresChanges(pool, events.lost, retry),
    ledger: (store, queries) => {
      const ledger = new PostgresLedger(pool, store, queries, logger);
      ledgers.push(ledger);
      return ledger;
    },
    activityIds: (_store, _queries, window) => leaseConfirmedReplays(new PostgresActivityIds(pool, logger, window), confirmed),
    deliveries: (deps) =>
      new WriterDeliveries(deps, { pool, holder: lease.holder, leaseMs: config.leaseMs, retry, lost: events.lost, queries }),
    storeFence: { epoch: lease.epoch, held },
    close: async () => {
      // What the ledger was told goes to PostgreSQL while this replica still holds the lease.
      await Promise.all(ledgers.map((ledger) => ledger.close()));
      await lease.release();
      await pool.end();
    },
  };
}
