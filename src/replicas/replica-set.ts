import type { CounterFactory } from '../auth/login-throttle.js';
import type { BlobStore } from '../documents/blob-store.js';
import { postgresCounters } from './login-counters.js';
import type { Logger } from '../logger.js';
import { PostgresBlobs } from './postgres-blobs.js';
import { openPostgres } from './postgres-state.js';
import type { ReplicaConfig } from './replica-config.js';
import { sharedJwtSecret } from './shared-secret.js';
import { WriterLease } from './writer-lease.js';

/** What a replica holding the writer lease gives the node in place of its data directory. */
export interface ReplicaState {
  blobs: BlobStore;
  jwtSecret(): Promise<string>;
  /** Failed-login counters every replica shares, so a takeover does not reset them. */
  loginCounters: CounterFactory;
  /** Lets the lease go and closes the connections (a graceful stop). */
  close(): Promise<void>;
}

/**
 * Joins the replica set of `config.databaseUrl`: waits on standby until this replica holds the writer
 * lease, then hands over the shared state. `lost` is called if the lease is lost later.
 */
export async function joinReplicaSet(
  config: ReplicaConfig,
  logger: Logger,
  events: { standby: () => void; lost: (reason: string) => void },
): Promise<ReplicaState> {
  const pool = await openPostgres(config.databaseUrl);
  const lease = await WriterLease.acquire(config.databaseUrl, {
    checkMs: config.checkMs,
    takeoverMs: config.takeoverMs,
    logger,
    standby: events.standby,
    lost: events.lost,
  });
  return {
    blobs: new PostgresBlobs(pool),
    jwtSecret: () => sharedJwtSecret(pool),
    loginCounters: postgresCounters(pool),
    close: async () => {
      await lease.release();
      await pool.end();
    },
  };
}
