import n3 from 'n3';
import type { Quad } from '@rdfjs/types';
import { writeRdf, type RdfFormat, type RdfRepresentation } from './rdf-formats.js';

/** One named graph of an export: its IRI and its triples as N-Triples text. */
export interface GraphTextOf {
  graph: string;
  text: string;
}

/**
 * The quads of an export: each graph's triples in that graph, with its blank nodes kept apart from
 * every other graph's (two graphs' dumps may use the same labels).
 */
export function quadsOfGraphs(graphs: readonly GraphTextOf[]): Quad[] {
  const { namedNode, quad } = n3.DataFactory;
  const quads: Quad[] = [];
  graphs.forEach(({ graph, text }, i) => {
    const g = namedNode(graph);
    for (const t of new n3.Parser({ format: 'N-Triples', blankNodePrefix: `g${i}_` }).parse(text))
      quads.push(quad(t.subject, t.predicate, t.object, g));
  });
  return quads;
}

/** An export written from its graphs' text (here, or on a thread of its own: export-thread.ts). */
export function writeExport(graphs: readonly GraphTextOf[], format: RdfFormat, contextUrl: string): Promise<RdfRepresentation> {
  return writeRdf(quadsOfGraphs(graphs), format, contextUrl);
}
