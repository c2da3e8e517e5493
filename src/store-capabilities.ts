import type { Logger } from './core/logger.js';
import type { StoreMemory } from './core/store/capacity-guard.js';
import type { GraphText } from './core/views/graph-text.js';
import { embeddedGraphText } from './adapters/oxigraph/embedded-graph-text.js';
import type { OxigraphStore } from './adapters/oxigraph/oxigraph-store.js';
import type { Compactor } from './adapters/oxigraph/recovery/compaction.js';
import type { CompactionSettings } from './adapters/oxigraph/recovery/compaction-policy.js';
import type { RecoveryReport } from './adapters/oxigraph/recovery/recovery.js';
import type { Snapshotter } from './adapters/oxigraph/recovery/snapshot.js';
import { wasmMemory } from './adapters/oxigraph/wasm/wasm-memory.js';
import type { MetricSources } from './adapters/ops/node-metrics.js';
import type { EngineCopies } from './adapters/sparql-endpoint/engine-for.js';

/**
 * What the opened store can do besides being a QuadStore, each a typed capability chosen once, from
 * the kind of store, and handed by node.ts to the one part that needs it: no part of the node reads
 * the embedded store's internals to find out. A SPARQL server has none of them.
 */
export interface StoreCapabilities {
  /** For the capacity guard: the memory the store lives in, and the quads its quota counts. */
  capacity?: { memory: StoreMemory; heldQuads: () => number };
  /** For the read views: a graph's text straight from the store's index, without a query. */
  graphText?: GraphText;
  /** For the metrics: snapshots and compactions done, recovery's time, removed quads and memory per instance. */
  metrics?: NonNullable<MetricSources['embedded']>;
  /**
   * For the change feed: snapshots follow each commit, and tell when the log rotated. Tests, benches
   * and the CLI also take one at will (`take`), wait for the one under way (`idle`), and read the
   * images taken alone between snapshots (`checkpoints`).
   */
  snapshots?: Pick<Snapshotter, 'committed' | 'onRotation' | 'take' | 'idle' | 'checkpoints'>;
  /** For the SPARQL engine: threads holding copies of the data, started from the store's files. */
  engineCopies?: EngineCopies;
}

/** The parts of the embedded store the capabilities are made of (open-store.ts opens them). */
export interface EmbeddedParts {
  store: OxigraphStore;
  snapshotter: Snapshotter;
  recovery: RecoveryReport;
  compaction: CompactionSettings;
  /** Compacts the store's memory at a snapshot when removed quads call for it (docs/memory-compaction.md). */
  compactor: Compactor;
  /** Memory images on: the engine's copies are imaged too, above the same minimum (docs/engine-images.md). */
  images?: { minQuads: number; fsync: boolean };
}

export function embeddedCapabilities(parts: EmbeddedParts, logger: Logger): StoreCapabilities {
  const { store, snapshotter } = parts;
  return {
    capacity: { memory: wasmMemory(() => store.largestMemoryBytes), heldQuads: () => store.ownApproximateSize },
    graphText: embeddedGraphText(store),
    metrics: { snapshots: snapshotter.history, compactions: parts.compactor.history, recoveryMs: parts.recovery.ms, store },
    snapshots: snapshotter,
    engineCopies: {
      flushLog: async () => store.log?.flush(),
      compaction: parts.compaction,
      images: parts.images,
      rotationWanted: () => {
        snapshotter.takeImage().catch((error: Error) => logger.warn('log rotation for an engine image failed', { error: error.message }));
      },
    },
  };
}
