import type { Principal } from '../../core/auth/principal.js';
import type { Change, QueryDataset, QuadStore } from '../../core/ports/quad-store.js';

/** Graphs named by FROM / FROM NAMED or by the protocol's default-graph-uri / named-graph-uri. */
export interface RequestedDataset {
  default: string[];
  named: string[];
}

/** One read query of a caller, answered as text in `format` over the graphs the caller may see. */
export interface EngineRequest {
  query: string;
  format: string;
  principal: Principal;
  /** Absent: every graph the caller may see, the default graph being their union. */
  requested?: RequestedDataset;
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
  /**
   * Takes one committed change, in commit order (a follower of the change feed); an engine that
   * queries the store itself has nothing to do.
   */
  follow(change: Change): void;
  /**
   * Every change before log `generation` has been followed, none after: an engine that keeps copies
   * may save one as an image there (docs/engine-images.md). `snapshot`: a snapshot rotated the log, not
   * an image taken alone.
   */
  imageAt?(generation: number, snapshot: boolean): void;
  close(): Promise<void>;
}

/**
 * The dataset of one query: the graphs the caller may see, or those of them the request names. A graph
 * the caller may not see is simply absent. Both lists are always given: with the default graph alone,
 * GRAPH ?g would range over the whole store.
 */
export function datasetFor(visible: Iterable<string>, requested?: RequestedDataset): QueryDataset {
  const readable = new Set(visible);
  if (!requested) return { defaultGraphs: [...readable], namedGraphs: [...readable] };
  const within = (graphs: string[]) => [...new Set(graphs)].filter((g) => readable.has(g));
  return { defaultGraphs: within(requested.default), namedGraphs: within(requested.named) };
}

/**
 * Runs queries on the node's store in the request's own turn, over the visible graphs the metadata and
 * policy graphs give. A store behind the SPARQL protocol enforces its own time limits; this engine can
 * only refuse an answer that came too late, so the embedded store uses the worker engine instead.
 */
export class StoreEngine implements SparqlEngine {
  constructor(
    private readonly store: QuadStore,
    private readonly visibleGraphs: (principal: Principal) => Promise<string[]>,
  ) {}

  async run(request: EngineRequest, timeoutMs: number): Promise<string> {
    const started = performance.now();
    const dataset = datasetFor(await this.visibleGraphs(request.principal), request.requested);
    const text = await this.store.queryRaw(request.query, dataset, request.format);
    if (performance.now() - started > timeoutMs) throw new QueryTimedOut(`The query ran longer than the limit of ${timeoutMs} ms`);
    return text;
  }

  follow(): void {}

  async close(): Promise<void> {}
}
