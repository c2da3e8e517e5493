import { mkdirSync } from 'node:fs';
import type { Logger } from './core/logger.js';
import type { QueryBank } from './core/queries/query-bank.js';
import type { OxigraphStore } from './adapters/oxigraph/oxigraph-store.js';
import type { QuadStore } from './core/ports/quad-store.js';
import { recoverEmbeddedStore, type RecoveryReport } from './adapters/oxigraph/recovery/recovery.js';
import { Snapshotter } from './adapters/oxigraph/recovery/snapshot.js';
import { Compactor } from './adapters/oxigraph/recovery/compaction.js';
import type { CompactionSettings } from './adapters/oxigraph/recovery/compaction-policy.js';
import { SparqlStore } from './adapters/sparql-server/sparql-store.js';
import { warnOfForeignGraphs } from './adapters/sparql-server/foreign-graphs.js';
import type { StoreConfig } from './store-config.js';

export interface OpenedStore {
  store: QuadStore;
  /** Set for the embedded store: its memory, log and snapshots. */
  embedded?: {
    store: OxigraphStore;
    snapshotter: Snapshotter;
    recovery: RecoveryReport;
    compactor: Compactor;
    compaction: CompactionSettings;
    /** Memory images on: the SPARQL engine's copies are imaged too, above the same minimum (docs/engine-images.md). */
    images?: { minQuads: number; fsync: boolean };
  };
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
    warnOfForeignGraphs(store, config.sparql!.user, queries, logger);
    return { store, close: () => store.close() };
  }
  mkdirSync(dataDir, { recursive: true });
  const { store, report } = await recoverEmbeddedStore(dataDir, fsync, logger, { images: config.images });
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
  return {
    store,
    embedded: {
      store,
      snapshotter,
      recovery: report,
      compactor,
      compaction: config.compaction,
      images: config.images ? { minQuads: config.imageMinQuads, fsync } : undefined,
    },
    close: async () => {
      await snapshotter.stop();
      await store.close();
    },
  };
}
