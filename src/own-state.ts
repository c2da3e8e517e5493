import { join } from 'node:path';
import { loadJwtSecret } from './auth/jwt-secret.js';
import { memoryCounters, type CounterFactory } from './auth/login-throttle.js';
import { FileBlobStore, type BlobStore } from './documents/blob-store.js';
import type { ConsignmentCatalog } from './catalog/consignment-catalog.js';
import { ConsignmentIndex } from './catalog/consignment-index.js';
import type { Sequence } from './catalog/sequence.js';
import { ProcessedActivities, type IdempotencyWindow, type ProcessedActivityIds } from './activities/idempotency.js';
import { ChangeIndex } from './changes/change-index.js';
import type { ChangeSource } from './changes/change-source.js';
import { Deliverer, type DelivererDeps } from './notify/deliverer.js';
import { MemoryLedger } from './notify/memory-ledger.js';
import type { SignalDelivery } from './notify/signal-delivery.js';
import type { ReceiverLedger } from './notify/receiver-ledger.js';
import type { QueryBank } from './queries/query-bank.js';
import type { QuadStore } from './store/quad-store.js';
import type { StoreFence } from './store/sparql-server/sparql-store-config.js';

/**
 * What the node keeps outside its graphs: documents' files, the JWT secret, failed-login counters and
 * the indexes over the graphs (the consignment catalog, the change feed's index, the receivers'
 * ledger). A single node keeps them in its data dir and memory (`localState`); a replica set in
 * PostgreSQL (replicas/replica-set.ts), shared by every replica.
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
