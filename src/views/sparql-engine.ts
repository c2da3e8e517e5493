import type { QueryDataset, QuadStore } from '../store/quad-store.js';

/** One read query over an explicit dataset, answered as text in `format`. */
export interface EngineRequest {
  query: string;
  dataset: QueryDataset;
  format: string;
}

/** The query ran past the time limit; nothing of its answer is returned. */
export class QueryTimedOut extends Error {
  override readonly name = 'QueryTimedOut';
}

/** The engine cannot take the query now (restarting, or too many waiting); retrying later may work. */
export class EngineBusy extends Error {
  override readonly name = 'EngineBusy';
}

/** Runs the SPARQL endpoint's queries, so the endpoint does not care where the data lives. */
export interface SparqlEngine {
  run(request: EngineRequest, timeoutMs: number): Promise<string>;
  /** The store the node must commit through so the engine sees every change (itself when nothing is copied). */
  follow(store: QuadStore): QuadStore;
  close(): Promise<void>;
}

/**
 * Runs queries on the node's store in the request's own turn. A store behind the SPARQL protocol
 * enforces its own time limits; on an embedded store this engine can only refuse an answer that came
 * too late, so the node uses the worker engine there (sparql-worker-engine.ts).
 */
export class StoreEngine implements SparqlEngine {
  constructor(private readonly store: QuadStore) {}

  async run(request: EngineRequest, timeoutMs: number): Promise<string> {
    const started = performance.now();
    const text = await this.store.queryRaw(request.query, request.dataset, request.format);
    if (performance.now() - started > timeoutMs) throw new QueryTimedOut(`The query ran longer than the limit of ${timeoutMs} ms`);
    return text;
  }

  follow(store: QuadStore): QuadStore {
    return store;
  }

  async close(): Promise<void> {}
}
