import { LRUCache } from 'lru-cache';
import { DataFactory } from 'n3';
import type { Quad, Quad_Object, Quad_Predicate, Quad_Subject } from '@rdfjs/types';
import type { QueryBank } from '../queries/query-bank.js';
import { iri, list } from '../queries/query-bank.js';
import type { QuadStore } from '../ports/quad-store.js';
import { frameNTriples, frameRoot } from './frame.js';
import type { GraphText } from './graph-text.js';
import { unpackTriples } from './packed-triples.js';
import { graphTextReader, type GraphTextReader } from './graph-text.js';

/**
 * The framed JSON of one data graph's root node, kept in a bounded LRU (as JSON text: parsing it
 * back is the cheapest deep copy); a write replaces its graph's entry (see invalidate). A miss reads
 * the graph as N-Triples text and frames it.
 */
export class GraphJson {
  private readonly cache: LRUCache<string, string>;
  /** The latest read of each graph being framed; a write to the graph withdraws it (see invalidate). */
  private readonly reading = new Map<string, object>();
  private readonly read: GraphTextReader;

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    capacity = 50_000,
    /** A faster read of one graph's N-Triples than the SPARQL query, where the store offers one. */
    private readonly graphText?: GraphText,
  ) {
    this.cache = new LRUCache({ max: capacity });
    this.read = graphTextReader(store, queries, graphText);
  }

  /** Whether graphs are read as text straight from the store (embedded), not through SPARQL requests. */
  get readsDirectly(): boolean {
    return this.graphText !== undefined;
  }

  has(graph: string): boolean {
    return this.cache.has(graph);
  }

  /**
   * Frames and caches graphs read by another request, with their roots. The caller has checked that
   * no write landed on them since they were read; one landing from now on keeps its graph out.
   */
  async keep(reads: { graph: string; root: string; triples: Quad[] }[]): Promise<void> {
    await Promise.all(reads.map(({ graph, root, triples }) => this.framed(graph, () => frameRoot(triples, root), this.reserve(graph))));
  }

  async of(graph: string, root: string): Promise<Record<string, unknown>> {
    const hit = this.cache.get(graph);
    if (hit !== undefined) return JSON.parse(hit) as Record<string, unknown>;
    return this.framed(graph, async () => frameNTriples(await this.read(graph), root));
  }

  /**
   * Reads the graphs of `wanted` not cached yet in one request and caches their JSON, so that the
   * of() calls after it are hits: on a SPARQL server each request has a cost of its own (see
   * views/graphs-triples.rq). Where the store reads a graph's text directly it does nothing.
   */
  async prefetch(wanted: { graph: string; root: string }[]): Promise<void> {
    const missing = new Map(wanted.filter(({ graph }) => !this.cache.has(graph)).map(({ graph, root }) => [graph, root]));
    if (this.graphText || missing.size < 2) return;
    const graphs = [...missing.keys()];
    const reads = new Map(graphs.map((graph) => [graph, this.reserve(graph)]));
    let triples: Map<string, Quad[]>;
    try {
      triples = await this.readPacked(graphs);
      const unread = graphs.filter((graph) => !triples.has(graph));
      if (unread.length > 0) for (const [graph, quads] of await this.readRows(unread)) triples.set(graph, quads);
    } catch (error) {
      for (const [graph, read] of reads) this.release(graph, read);
      throw error;
    }
    await Promise.all(
      graphs.map((graph) => this.framed(graph, () => frameRoot(triples.get(graph)!, missing.get(graph)!), reads.get(graph))),
    );
  }

  /**
   * The graphs each as one packed string (views/graphs-packed.rq): the ones whose text checks out, and
   * the empty ones (which have no row); a graph missing from the answer is to be read row by row.
   */
  private async readPacked(graphs: string[]): Promise<Map<string, Quad[]>> {
    const triples = new Map<string, Quad[]>(graphs.map((graph) => [graph, []]));
    for (const row of await this.store.select(this.queries.bind('views/graphs-packed', { graphs: list(graphs.map(iri)) }))) {
      const graph = row.get('graph')!.value;
      const unpacked = unpackTriples(row.get('text')?.value ?? '');
      if (unpacked) triples.set(graph, unpacked);
      else triples.delete(graph);
    }
    return triples;
  }

  /** The graphs' triples one answer row each (views/graphs-triples.rq): any term the server holds. */
  private async readRows(graphs: string[]): Promise<Map<string, Quad[]>> {
    const triples = new Map<string, Quad[]>(graphs.map((graph) => [graph, []]));
    for (const row of await this.store.select(this.queries.bind('views/graphs-triples', { graphs: list(graphs.map(iri)) }))) {
      triples
        .get(row.get('graph')!.value)
        ?.push(DataFactory.quad(row.get('s') as Quad_Subject, row.get('p') as Quad_Predicate, row.get('o') as Quad_Object));
    }
    return triples;
  }

  /** Frames a graph and caches its JSON unless a write to it landed meanwhile (see invalidate). */
  private async framed(
    graph: string,
    frame: () => Promise<Record<string, unknown>>,
    read = this.reserve(graph),
  ): Promise<Record<string, unknown>> {
    let json: Record<string, unknown>;
    try {
      json = await frame();
    } catch (error) {
      this.release(graph, read);
      throw error;
    }
    // A write to this graph that landed while it was read may have made this stale: keep it out of the cache.
    if (this.reading.get(graph) === read) {
      this.reading.delete(graph);
      this.cache.set(graph, JSON.stringify(json));
    }
    return json;
  }

  private reserve(graph: string): object {
    const read = {};
    this.reading.set(graph, read);
    return read;
  }

  private release(graph: string, read: object): void {
    if (this.reading.get(graph) === read) this.reading.delete(graph);
  }

  invalidate(graph: string): void {
    this.reading.delete(graph);
    this.cache.delete(graph);
  }

  /** Any graph may have been written (a replica that missed commits it follows). */
  clear(): void {
    this.reading.clear();
    this.cache.clear();
  }
}
