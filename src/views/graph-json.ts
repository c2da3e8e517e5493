import type { QueryBank } from '../queries/query-bank.js';
import { iri } from '../queries/query-bank.js';
import type { QuadStore } from '../store/quad-store.js';
import { frameRoot } from './frame.js';

/**
 * The framed JSON of one data graph's root node. Framing costs about a millisecond, so results are
 * kept in a bounded LRU; a write replaces its graph's entry (see invalidate).
 */
export class GraphJson {
  private readonly cache = new Map<string, Record<string, unknown>>();

  constructor(private readonly store: QuadStore, private readonly queries: QueryBank, private readonly capacity = 50_000) {}

  async of(graph: string, root: string): Promise<Record<string, unknown>> {
    const hit = this.cache.get(graph);
    if (hit) {
      this.cache.delete(graph);
      this.cache.set(graph, hit);
      return structuredClone(hit);
    }
    const quads = await this.store.construct(this.queries.bind('ingest/graph-quads', { graph: iri(graph) }));
    const json = await frameRoot(quads, root);
    this.cache.set(graph, json);
    if (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value!);
    return structuredClone(json);
  }

  invalidate(graph: string): void {
    this.cache.delete(graph);
  }
}
