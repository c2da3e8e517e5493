import type { CounterFactory } from '../auth/login-throttle.js';
import type { IdempotencyWindow, ProcessedActivityIds } from '../activities/idempotency.js';
import type { Sequence } from '../catalog/sequence.js';
import type { DelivererDeps } from '../notify/deliverer.js';
import type { SignalDelivery } from '../notify/signal-delivery.js';
import type { QueryBank } from '../queries/query-bank.js';
import type { BlobStore } from './blob-store.js';
import type { ChangeSource } from './change-source.js';
import type { ConsignmentCatalog } from './consignment-catalog.js';
import type { QuadStore } from './quad-store.js';
import type { ReceiverLedger } from './receiver-ledger.js';

/** What a replica set's writer's updates carry, and what it checks before it counts one applied. */
export interface StoreFence {
  /** Each update applies only while the store holds this epoch (sparql/store/fenced-*.rq). */
  readonly epoch: number;
  /** Whether the writer still holds its lease for certain: checked before each Update request is sent and after it is answered. */
  held(): boolean;
}

/**
 * What the node keeps outside its graphs: documents' files, the JWT secret, failed-login counters and
 * the indexes over the graphs (the consignment catalog, the change feed's index, the receivers'
 * ledger). A single node keeps them in its data dir and memory (`localState`, src/own-state.ts); a
 * replica set in PostgreSQL (adapters/postgres/replica-set.ts), shared by every replica.
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
  /** How signals go out: from this process, or from every replica of a set (adapters/postgres/signals/). */
  deliveries(deps: DelivererDeps): SignalDelivery;
  /** The activity ids applied within `window` (spec 2.1 retries): in memory, or looked up in `store`. */
  activityIds(store: QuadStore, queries: QueryBank, window: IdempotencyWindow): ProcessedActivityIds;
  /** A replica set's writer's lease: the store's updates are fenced on it (docs/replicas.md). */
  storeFence?: StoreFence;
  close(): Promise<void>;
}
