import type { Logger } from './core/logger.js';
import type { Principal } from './core/auth/principal.js';
import type { OpenedStore } from './open-store.js';
import { StoreEngine, type SparqlEngine } from './adapters/sparql-endpoint/engine.js';
import { WorkerEngine } from './adapters/sparql-endpoint/scheduler.js';

/**
 * The engine for the node's store: threads of their own on the embedded store; the server itself behind
 * the SPARQL protocol, over the graphs `visibleGraphs` gives.
 */
export function sparqlEngineFor(
  opened: OpenedStore,
  dataDir: string,
  logger: Logger,
  visibleGraphs: (principal: Principal) => Promise<string[]>,
  limits: { threads?: number; maxWaitingPerOrg?: number; idleMs?: number } = {},
): SparqlEngine {
  const embedded = opened.embedded;
  if (!embedded) return new StoreEngine(opened.store, visibleGraphs);
  return new WorkerEngine({
    dataDir,
    logger,
    flushLog: async () => embedded.store.log?.flush(),
    threads: limits.threads,
    maxWaitingPerOrg: limits.maxWaitingPerOrg,
    idleMs: limits.idleMs,
    compaction: embedded.compaction,
    images: embedded.images,
    rotationWanted: () => {
      embedded.snapshotter
        .takeImage()
        .catch((error: Error) => logger.warn('log rotation for an engine image failed', { error: error.message }));
    },
  });
}
