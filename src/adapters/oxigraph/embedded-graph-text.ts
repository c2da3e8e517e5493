import oxigraph from 'oxigraph';
import type { GraphText } from '../../core/views/graph-text.js';
import type { OxigraphStore } from './oxigraph-store.js';

/**
 * Reads a graph of the embedded store straight from its quad index: a dump of one graph costs a fraction
 * of the same triples through a SPARQL CONSTRUCT, which parses and plans a query each time, and a read
 * view frames two or three graphs (the figures: bench/results/2026-12-07-comment-figures.md). The text is
 * the same N-Triples either way.
 */
export function embeddedGraphText(embedded: OxigraphStore): GraphText {
  return (graph) => embedded.store.dump({ format: 'application/n-triples', from_graph_name: oxigraph.namedNode(graph) });
}
