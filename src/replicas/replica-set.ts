import { StoredActivityIds } from '../activities/stored-activity-ids.js';
import type { Logger } from '../logger.js';
import type { OwnState } from '../own-state.js';
import { postgresCounters } from './login-counters.js';
import { PostgresBlobs } from './postgres-blobs.js';
import { PostgresCatalog } from './postgres-catalog.js';
import { PostgresChanges } from './postgres-changes.js';
import { PostgresLedger } from './postgres-ledger.js';
import { openPostgres } from './postgres-state.js';
import type { ReplicaConfig } from './replica-config.js';
import { sharedJwtSecret } from './shared-secret.js';
import { WriterLease } from './writer-lease.js';

/**
 * Joins the replica set of `config.databaseUrl`: waits on standby until this replica holds the writer
 * lease, then hands over the state every replica shares (closing it lets the lease go). `lost` is
 * called if the lease is lost later.
 */
export async function joinReplicaSet(
  config: ReplicaConfig,
  logger: Logger,
  events: { standby: () => void; lost: (reason: string) => void },
): Promise<OwnState> {
  const pool = await openPostgres(config.databaseUrl);
  const lease = await WriterLease.acquire(config.databaseUrl, {
    checkMs: config.checkMs,
    takeoverMs: config.takeoverMs,
    logger,
    standby: events.standby,
    lost: events.lost,
  });
  const ledgers: PostgresLedger[] = [];
  return {
    blobs: new PostgresBlobs(pool),
    jwtSecret: () => sharedJwtSecret(pool),
    loginCounters: postgresCounters(pool),
    catalog: (store, queries, sequence) => new PostgresCatalog(pool, store, queries, () => sequence.high, events.lost),
    changes: () => new PostgresChanges(pool, events.lost),
    ledger: (store, queries) => {
      const ledger = new PostgresLedger(pool, store, queries, logger);
      ledgers.push(ledger);
      return ledger;
    },
    activityIds: (store, queries, window) => new StoredActivityIds(store, queries, window),
    close: async () => {
      // What the ledger was told goes to PostgreSQL while this replica still holds the lease.
      await Promise.all(ledgers.map((ledger) => ledger.close()));
      await lease.release();
      await pool.end();
    },
  };
}
