import oxigraph from 'oxigraph';
import type { GraphText } from '../../core/views/graph-text.js';
import type { OxigraphStore } from './oxigraph-store.js';

/**
 * Reads a graph of the embedded store straight from its quad index: a dump of one graph costs
 * ~0.05 ms where the same triples through a SPARQL CONSTRUCT cost ~0.15–0.23 ms (query parse and
 * plan), and a read view frames two or three graphs. The text is the same N-Triples either way.
 */
export function embeddedGraphText(embedded: OxigraphStore): GraphText {
  return (graph) => embedded.store.dump({ format: 'application/n-triples', from_graph_name: oxigraph.namedNode(graph) });
}
