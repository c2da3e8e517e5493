import { join } from 'node:path';
import { loadJwtSecret } from './auth/jwt-secret.js';
import { memoryCounters, type CounterFactory } from './auth/login-throttle.js';
import { FileBlobStore, type BlobStore } from './documents/blob-store.js';

/**
 * What the node keeps outside its graphs: documents' files, the JWT secret and failed-login counters.
 * A single node keeps them in its data dir and memory (`localState`); a replica set in PostgreSQL
 * (replicas/replica-set.ts), shared by every replica.
 */
export interface OwnState {
  blobs: BlobStore;
  /** The secret tokens are signed with when JWT_SECRET is not set. */
  jwtSecret(): Promise<string>;
  loginCounters: CounterFactory;
  close(): Promise<void>;
}

export function localState(dataDir: string, fsync: boolean): OwnState {
  return {
    blobs: new FileBlobStore(join(dataDir, 'blobs'), fsync),
    jwtSecret: async () => loadJwtSecret(dataDir),
    loginCounters: memoryCounters,
    close: async () => undefined,
  };
}
