import type { SparqlStoreConfig } from '../sparql-server/sparql-store-config.js';

/**
 * Where a node's data is, as export and import need it: the part of the node's settings they read.
 * The composition root reads and checks the settings (src/config.ts) and hands them over
 * (src/cli-main.ts), so the command line never reads the environment for them itself.
 */
export interface NodeData {
  dataDir: string;
  fsync: boolean;
  store: { kind: 'embedded' | 'sparql'; sparql: SparqlStoreConfig | undefined };
  /** Set when the node runs as a replica set: its files and indexes are then in PostgreSQL. */
  replica?: unknown;
}

/** What the command line needs from the composition root. */
export interface CliRoot {
  /** The node's settings, read and checked once a command needs them. */
  nodeData(): NodeData;
  /** Starts the node in this process (`dataspace serve`); it runs until SIGTERM/SIGINT. */
  serve(): Promise<unknown>;
}
