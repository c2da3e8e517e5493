import type oxigraph from 'oxigraph';
import type { Quad } from '@rdfjs/types';
import type { Bindings, QueryDataset, QueryStore } from '../../core/ports/quad-store.js';
import { triplesFromNTriples } from '../../core/rdf/ntriples-text.js';
import { datasetOptions } from './oxigraph-terms.js';

/**
 * The queries of the embedded store, over whatever Oxigraph store it holds now. Apart from its writes
 * (oxigraph-store.ts) because a read never touches the log, the size estimate or the memory's headroom.
 */
export abstract class OxigraphReads implements QueryStore {
  /** The Oxigraph store to read: asked afresh for each query, a compaction replaces it. */
  abstract get store(): oxigraph.Store;

  async select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
    return this.store.query(query, datasetOptions(dataset)) as unknown as Bindings[];
  }

  /** Synchronous SELECT, for hot read paths that need no await. */
  selectSync(query: string, dataset?: QueryDataset): Bindings[] {
    return this.store.query(query, datasetOptions(dataset)) as unknown as Bindings[];
  }

  async ask(query: string, dataset?: QueryDataset): Promise<boolean> {
    return this.store.query(query, datasetOptions(dataset)) as boolean;
  }

  /**
   * Answered as N-Triples text and read in JavaScript: Oxigraph's own quads are WebAssembly objects
   * with a finaliser each, and every term read from them is another, so text is the cheaper read of a
   * view's metadata triples (figures: bench/results/2026-12-08-comment-figures.md). Text it does not
   * read (a quoted triple) is answered the other way.
   */
  async construct(query: string, dataset?: QueryDataset): Promise<Quad[]> {
    const text = this.store.query(query, { ...datasetOptions(dataset), results_format: 'application/n-triples' }) as string;
    return triplesFromNTriples(text) ?? (this.store.query(query, datasetOptions(dataset)) as unknown as Quad[]);
  }

  async queryRaw(query: string, dataset: QueryDataset | undefined, format: string): Promise<string> {
    return this.store.query(query, { ...datasetOptions(dataset), results_format: format }) as string;
  }
}
