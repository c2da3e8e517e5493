import type { Logger } from '../../core/logger.js';
import type { Principal } from '../../core/auth/principal.js';
import type { QuadStore } from '../../core/ports/quad-store.js';
import { StoreEngine, type SparqlEngine } from './engine.js';
import { WorkerEngine } from './scheduler.js';
import type { WorkerEngineDeps } from './scheduler-deps.js';

/** What the embedded store gives its engine threads to start their copies from (the capability `engineCopies`). */
export type EngineCopies = Pick<WorkerEngineDeps, 'flushLog' | 'compaction' | 'images' | 'rotationWanted'>;

/**
 * The engine for the node's store: threads of their own on the embedded store; the server itself behind
 * the SPARQL protocol, over the graphs `visibleGraphs` gives.
 */
export function sparqlEngineFor(
  store: QuadStore,
  engineCopies: EngineCopies | undefined,
  dataDir: string,
  logger: Logger,
  visibleGraphs: (principal: Principal) => Promise<string[]>,
  limits: { threads?: number; maxWaitingPerOrg?: number; idleMs?: number } = {},
): SparqlEngine {
  if (!engineCopies) return new StoreEngine(store, visibleGraphs);
  return new WorkerEngine({
    ...engineCopies,
    dataDir,
    logger,
    threads: limits.threads,
    maxWaitingPerOrg: limits.maxWaitingPerOrg,
    idleMs: limits.idleMs,
  });
}
