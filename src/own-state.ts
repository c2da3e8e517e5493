import { join } from 'node:path';
import { loadJwtSecret } from './core/auth/jwt-secret.js';
import { memoryCounters, type CounterFactory } from './core/auth/login-throttle.js';
import { FileBlobStore, type BlobStore } from './core/ports/blob-store.js';
import type { ConsignmentCatalog } from './core/ports/consignment-catalog.js';
import { ConsignmentIndex } from './core/catalog/consignment-index.js';
import type { Sequence } from './core/catalog/sequence.js';
import { ProcessedActivities, type IdempotencyWindow, type ProcessedActivityIds } from './core/activities/idempotency.js';
import { ChangeIndex } from './core/changes/change-index.js';
import type { ChangeSource } from './core/ports/change-source.js';
import { Deliverer, type DelivererDeps } from './core/notify/deliverer.js';
import { MemoryLedger } from './core/ports/memory-ledger.js';
import type { SignalDelivery } from './core/notify/signal-delivery.js';
import type { ReceiverLedger } from './core/ports/receiver-ledger.js';
import type { QueryBank } from './core/queries/query-bank.js';
import type { QuadStore } from './core/ports/quad-store.js';
import type { StoreFence } from './adapters/sparql-server/sparql-store-config.js';

/**
 * What the node keeps outside its graphs: documents' files, the JWT secret, failed-login counters and
 * the indexes over the graphs (the consignment catalog, the change feed's index, the receivers'
 * ledger). A single node keeps them in its data dir and memory (`localState`); a replica set in
 * PostgreSQL (adapters/postgres/replica-set.ts), shared by every replica.
 */
export interface OwnState {
  blobs: BlobStore;
  /** The secret tokens are signed with when JWT_SECRET is not set. */
  jwtSecret(): Promise<string>;
  loginCounters: CounterFactory;
  /** The consignment catalog over `store`; `sequence` is the node's publication sequence. */
  catalog(store: QuadStore, queries: QueryBank, sequence: Sequence): ConsignmentCatalog;
  /** The change feed's index over the journal. */
  changes(): ChangeSource;
  /** The receivers' ledger, read from the outbox in `store`: one a node. */
  ledger(store: QuadStore, queries: QueryBank): ReceiverLedger;
  /** How signals go out: from this process, or from every replica of a set (replicas/signals/). */
  deliveries(deps: DelivererDeps): SignalDelivery;
  /** The activity ids applied within `window` (spec 2.1 retries): in memory, or looked up in `store`. */
  activityIds(store: QuadStore, queries: QueryBank, window: IdempotencyWindow): ProcessedActivityIds;
  /** A replica set's writer's lease: the store's updates are fenced on it (docs/replicas.md). */
  storeFence?: StoreFence;
  close(): Promise<void>;
}

export function localState(dataDir: string, fsync: boolean): OwnState {
  return {
    blobs: new FileBlobStore(join(dataDir, 'blobs'), fsync),
    jwtSecret: async () => loadJwtSecret(dataDir),
    loginCounters: memoryCounters,
    catalog: (store, queries) => new ConsignmentIndex(store, queries),
    changes: () => new ChangeIndex(),
    ledger: (store, queries) => new MemoryLedger(store, queries),
    deliveries: (deps) => new Deliverer(deps),
    activityIds: (store, queries, window) => new ProcessedActivities(store, queries, window),
    close: async () => undefined,
  };
}
