import { join } from 'node:path';
import { loadJwtSecret } from './core/auth/jwt-secret.js';
import { memoryCounters } from './core/auth/login-throttle.js';
import { FileBlobStore } from './core/ports/blob-store.js';
import { ConsignmentIndex } from './core/ports/memory-consignment-catalog.js';
import { ProcessedActivities } from './core/activities/idempotency.js';
import { ChangeIndex } from './core/ports/memory-change-source.js';
import { Deliverer } from './core/notify/deliverer.js';
import { MemoryLedger } from './core/ports/memory-ledger.js';
import type { OwnState } from './core/ports/own-state.js';

// Also named here, where it was declared before it became a port, so code written against this place builds.
export type { OwnState } from './core/ports/own-state.js';

/** A single node's own state: its data dir and memory. */
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
