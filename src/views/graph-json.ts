import { LRUCache } from 'lru-cache';
import type { QueryBank } from '../queries/query-bank.js';
import { iri } from '../queries/query-bank.js';
import type { QuadStore } from '../store/quad-store.js';
import { frameNTriples } from './frame.js';
import type { GraphText } from './embedded-graph-text.js';

/**
 * The framed JSON of one data graph's root node, kept in a bounded LRU (as JSON text: parsing it
 * back is the cheapest deep copy); a write replaces its graph's entry (see invalidate). A miss reads
 * the graph as N-Triples text and frames it (about 0.2 ms for a consignment).
 */
export class GraphJson {
  private readonly cache: LRUCache<string, string>;
  /** The latest read of each graph being framed; a write to the graph withdraws it (see invalidate). */
  private readonly reading = new Map<string, object>();

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    capacity = 50_000,
    /** A faster read of one graph's N-Triples than the SPARQL query, where the store offers one. */
    private readonly graphText?: GraphText,
  ) {
    this.cache = new LRUCache({ max: capacity });
  }

  private read(graph: string): Promise<string> {
    if (this.graphText) return Promise.resolve(this.graphText(graph));
    // As written, without a dataset: the query names its one graph, and on an external store a dataset
    // costs a parse and rewrite of the text (sparqljs) per graph read.
    return this.store.queryRaw(this.queries.bind('ingest/graph-quads', { graph: iri(graph) }), undefined, 'application/n-triples');
  }

  async of(graph: string, root: string): Promise<Record<string, unknown>> {
    const hit = this.cache.get(graph);
    if (hit !== undefined) return JSON.parse(hit) as Record<string, unknown>;
    const read = {};
    this.reading.set(graph, read);
    let json: Record<string, unknown>;
    try {
      json = await frameNTriples(await this.read(graph), root);
    } catch (error) {
      if (this.reading.get(graph) === read) this.reading.delete(graph);
      throw error;
    }
    // A write to this graph that landed while it was read may have made this stale: keep it out of the cache.
    if (this.reading.get(graph) === read) {
      this.reading.delete(graph);
      this.cache.set(graph, JSON.stringify(json));
    }
    return json;
  }

  invalidate(graph: string): void {
    this.reading.delete(graph);
    this.cache.delete(graph);
  }
}
