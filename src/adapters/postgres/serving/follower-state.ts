import type pg from 'pg';
import { StoredActivityIds } from '../../../core/activities/stored-activity-ids.js';
import type { Logger } from '../../../core/logger.js';
import type { OwnState } from '../../../core/ports/own-state.js';
import type { QueryBank } from '../../../core/queries/query-bank.js';
import { DelegatingStore } from '../../../core/store/delegating-store.js';
import type { Change, Committed, QuadStore } from '../../../core/ports/quad-store.js';
import { postgresCounters } from '../login-counters.js';
import { PostgresBlobs } from '../postgres-blobs.js';
import { PostgresCatalog } from '../postgres-catalog.js';
import { PostgresChanges } from '../postgres-changes.js';
import { PostgresLedger } from '../postgres-ledger.js';
import { sharedJwtSecret } from '../shared-secret.js';
import { statement } from '../statements.js';
import { followerDeliveries } from '../signals/set-deliveries.js';

/** How often a follower asks whether the writer's first fill of the catalog is done. */
const FILLED_POLL_MS = 500;

/**
 * The catalog as a follower reads it: the writer's tables, never caught up from here (only the lease
 * holder writes them). Lists and finds wait until the writer has filled them once; after that the
 * writer keeps them level with the store before it answers each write.
 */
class FollowedCatalog extends PostgresCatalog {
  private filled: Promise<void> | undefined;

  constructor(
    private readonly tables: pg.Pool,
    store: QuadStore,
    queries: QueryBank,
  ) {
    super(
      tables,
      store,
      queries,
      () => 0,
      () => undefined,
    );
  }

  override startLoading(): void {
    this.ready().catch(() => undefined);
  }

  override ready(): Promise<void> {
    if (!this.filled) {
      const filling = this.untilFilled();
      this.filled = filling;
      // A read that failed (PostgreSQL away) is asked again by the next one: it must not answer every read from then on.
      filling.catch(() => {
        if (this.filled === filling) this.filled = undefined;
      });
    }
    return this.filled;
  }

  override complete(): Promise<void> {
    return this.ready();
  }

  private async untilFilled(): Promise<void> {
    for (;;) {
      const { rows } = await this.tables.query(statement('catalog-applied'));
      if (rows.length > 0) return;
      await new Promise((ok) => setTimeout(ok, FILLED_POLL_MS));
    }
  }
}

/** A follower's commit: refused, whatever asks. Writes reach the writer, forwarded; a commit here is a bug. */
class FollowerStore extends DelegatingStore {
  override commit(_change: Change): Promise<Committed> {
    return Promise.reject(new Error('a replica that does not hold the writer lease commits nothing: its writes go to the writer'));
  }
}

export const followerStore = (inner: QuadStore): QuadStore => new FollowerStore(inner);

/** The state a follower shares with its set in PostgreSQL: as the writer's (replica-set.ts), read, not written. */
export function followerState(pool: pg.Pool, logger: Logger, signals: { holder: string; leaseMs: number }): OwnState {
  return {
    blobs: new PostgresBlobs(pool),
    jwtSecret: () => sharedJwtSecret(pool),
    loginCounters: postgresCounters(pool),
    catalog: (store, queries) => new FollowedCatalog(pool, store, queries),
    // The change feed and the ledger are read through the writer (forward-writes.ts WRITER_READS).
    changes: () => new PostgresChanges(pool, () => undefined),
    ledger: (store, queries) => new PostgresLedger(pool, store, queries, logger),
    activityIds: (store, queries, window) => new StoredActivityIds(store, queries, window),
    // Every replica sends signals: it claims them in PostgreSQL (replicas/signals/).
    deliveries: (deps) => followerDeliveries(deps, { pool, ...signals }),
    close: async () => undefined,
  };
}
