import type { QueryBank } from '../queries/query-bank.js';
import { iri } from '../queries/query-bank.js';
import type { QuadStore } from '../store/quad-store.js';
import { frameNTriples } from './frame.js';

/**
 * The framed JSON of one data graph's root node, kept in a bounded LRU (as JSON text: parsing it
 * back is the cheapest deep copy); a write replaces its graph's entry (see invalidate). A miss reads
 * the graph as N-Triples text and frames it (about 0.2 ms for a consignment).
 */
export class GraphJson {
  private readonly cache = new Map<string, string>();
  private invalidations = 0;

  constructor(private readonly store: QuadStore, private readonly queries: QueryBank, private readonly capacity = 50_000) {}

  async of(graph: string, root: string): Promise<Record<string, unknown>> {
    const hit = this.cache.get(graph);
    if (hit !== undefined) {
      this.cache.delete(graph);
      this.cache.set(graph, hit);
      return JSON.parse(hit) as Record<string, unknown>;
    }
    const before = this.invalidations;
    const text = await this.store.queryRaw(
      this.queries.bind('ingest/graph-quads', { graph: iri(graph) }),
      { defaultGraphs: [], namedGraphs: [graph] },
      'application/n-triples',
    );
    const json = await frameNTriples(text, root);
    // A write that landed while this was read may have framed stale data: keep it out of the cache.
    if (this.invalidations === before) {
      this.cache.set(graph, JSON.stringify(json));
      if (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value!);
    }
    return json;
  }

  invalidate(graph: string): void {
    this.invalidations++;
    this.cache.delete(graph);
  }
}
