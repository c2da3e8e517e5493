import type { QueryBank } from '../queries/query-bank.js';
import { iri } from '../queries/query-bank.js';
import type { QuadStore } from '../ports/quad-store.js';

/** One data graph's triples as N-Triples text, read at once (the embedded store's index). */
export type GraphText = (graph: string) => string;

/** One data graph's triples as N-Triples text. */
export type GraphTextReader = (graph: string) => Promise<string>;

/**
 * Reads a graph's text straight from the embedded store's index where there is one, else by the
 * graph's CONSTRUCT on the SPARQL server as written, without a dataset (on an external store a
 * dataset costs a parse and rewrite of the text per graph read). No terms are made on this thread.
 */
export function graphTextReader(store: QuadStore, queries: QueryBank, direct?: GraphText): GraphTextReader {
  if (direct) return (graph) => Promise.resolve(direct(graph));
  return (graph) => store.queryRaw(queries.bind('ingest/graph-quads', { graph: iri(graph) }), undefined, 'application/n-triples');
}
