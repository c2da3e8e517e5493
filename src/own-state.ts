import { join } from 'node:path';
import { loadJwtSecret } from './auth/jwt-secret.js';
import { memoryCounters, type CounterFactory } from './auth/login-throttle.js';
import { FileBlobStore, type BlobStore } from './documents/blob-store.js';
import { MemoryLedger } from './notify/memory-ledger.js';
import type { ReceiverLedger } from './notify/receiver-ledger.js';
import type { QueryBank } from './queries/query-bank.js';
import type { QuadStore } from './store/quad-store.js';

/**
 * What the node keeps outside its graphs: documents' files, the JWT secret, failed-login counters and
 * the receivers' ledger (what GET /signals walks, rebuilt from the outbox in `store`).
 * A single node keeps them in its data dir and memory (`localState`); a replica set in PostgreSQL
 * (replicas/replica-set.ts), shared by every replica.
 */
export interface OwnState {
  blobs: BlobStore;
  /** The secret tokens are signed with when JWT_SECRET is not set. */
  jwtSecret(): Promise<string>;
  loginCounters: CounterFactory;
  /** The receivers' ledger, read from the outbox in `store`: one a node. */
  ledger(store: QuadStore, queries: QueryBank): ReceiverLedger;
  close(): Promise<void>;
}

export function localState(dataDir: string, fsync: boolean): OwnState {
  return {
    blobs: new FileBlobStore(join(dataDir, 'blobs'), fsync),
    jwtSecret: async () => loadJwtSecret(dataDir),
    loginCounters: memoryCounters,
    ledger: (store, queries) => new MemoryLedger(store, queries),
    close: async () => undefined,
  };
}
