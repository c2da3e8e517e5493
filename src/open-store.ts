import { mkdirSync } from 'node:fs';
import type { Logger } from './core/logger.js';
import type { QueryBank } from './core/queries/query-bank.js';
import type { QuadStore } from './core/ports/quad-store.js';
import { recoverEmbeddedStore } from './adapters/oxigraph/recovery/recovery.js';
import { Snapshotter } from './adapters/oxigraph/recovery/snapshot.js';
import { Compactor } from './adapters/oxigraph/recovery/compaction.js';
import { SparqlStore } from './adapters/sparql-server/sparql-store.js';
import { warnOfForeignGraphs } from './adapters/sparql-server/foreign-graphs.js';
import type { StoreConfig } from './store-config.js';
import { embeddedCapabilities, type EmbeddedParts, type StoreCapabilities } from './store-capabilities.js';

export interface OpenedStore {
  store: QuadStore;
  /** What the store can do besides a QuadStore, which node.ts hands to who needs it. */
  capabilities: StoreCapabilities;
  /** Set for the embedded store: its parts, for tests and benches that drive them (the node reads `capabilities`). */
  embedded?: EmbeddedParts;
  /** Waits for a running snapshot, flushes the log and closes. */
  close(): Promise<void>;
}

export async function openStore(
  config: StoreConfig,
  dataDir: string,
  fsync: boolean,
  queries: QueryBank,
  logger: Logger,
): Promise<OpenedStore> {
  if (config.kind === 'sparql') {
    const store = new SparqlStore(config.sparql!, undefined, logger);
    await store.check();
    logger.info('using the SPARQL store', { query: config.sparql!.queryUrl, update: config.sparql!.updateUrl });
    const foreign = warnOfForeignGraphs(store, config.sparql!, queries, logger);
    return {
      store,
      capabilities: {},
      close: () => {
        foreign.stop();
        return store.close();
      },
    };
  }
  mkdirSync(dataDir, { recursive: true });
  const { store, report } = await recoverEmbeddedStore(dataDir, fsync, logger, { images: config.images });
  // Graphs staged ahead of a commit that never came, kept by a snapshot or image: unseen, and dropped now.
  const unpublished = store.dropUnpublished();
  if (unpublished.length > 0) logger.info('dropped graphs staged ahead of a commit that never came', { graphs: unpublished.length });
  const compactor = new Compactor(store, { settings: config.compaction, logger });
  const snapshotter = new Snapshotter(store, queries, {
    dir: dataDir,
    fsync,
    logBytesThreshold: config.snapshotLogBytes,
    logger,
    images: config.images,
    imageMinQuads: config.imageMinQuads,
    compactor,
  });
  const parts: EmbeddedParts = {
    store,
    snapshotter,
    recovery: report,
    compaction: config.compaction,
    compactor,
    images: config.images ? { minQuads: config.imageMinQuads, fsync } : undefined,
  };
  return {
    store,
    capabilities: embeddedCapabilities(parts, logger),
    embedded: parts,
    close: async () => {
      await snapshotter.stop();
      await store.close();
    },
  };
}
