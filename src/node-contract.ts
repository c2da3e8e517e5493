import type { Express } from 'express';
import type { Ingest } from './core/activities/ingest.js';
import type { ReaderPool } from './core/activities/reader-pool.js';
import type { Registry } from './core/registry/registry.js';
import type { Users } from './core/accounts/users.js';
import type { OpenedStore } from './open-store.js';
import type { StoreCapabilities } from './store-capabilities.js';
import type { QuadStore } from './core/ports/quad-store.js';
import type { OwnState } from './core/ports/own-state.js';
import type { Clock } from './core/ports/clock.js';
import type { PayloadValidator } from './core/validation/index.js';
import type { ServingRole } from './adapters/postgres/serving/serving-role.js';

/** What createNode (node.ts) is given and gives back: the contract of the composition root. */
export interface DataspaceNode {
  app: Express;
  store: QuadStore;
  /** What the store can do besides being a QuadStore (store-capabilities.ts): none on a SPARQL server. */
  capabilities: StoreCapabilities;
  /**
   * The embedded store's parts themselves (absent on a SPARQL server), for the few benches and tests
   * that measure the Oxigraph adapter's own memory or staging; everything else uses `capabilities`.
   */
  embedded: OpenedStore['embedded'];
  registry: Registry;
  users: Users;
  ingest: Ingest;
  /** Resolves once the writes that follow commits (the change journal's policy entries) are made. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface NodeOptions {
  /** A compiled validator to reuse (compiling the shapes takes a moment; tests share one). */
  validator?: PayloadValidator;
  /** What the node keeps outside its graphs, when not in its data dir: a replica set's, in PostgreSQL. */
  ownState?: OwnState;
  /** Reader threads started already (a replica on standby starts them while it waits, to take over sooner). */
  reader?: ReaderPool;
  /** A replica set's writer or follower (replicas/serving/); a follower writes nothing and owns not `reader`. */
  serving?: ServingRole;
  /** The time the node stamps on what it writes (core/ports/clock.ts); the machine's by default. */
  clock?: Clock;
}
