import oxigraph from 'oxigraph';
import type { ChangeOp, QueryDataset } from '../../core/ports/quad-store.js';

/** Types, terms and text helpers of the embedded store (oxigraph-store.ts). */

/** A change with its inserted quads parsed, as the snapshot writer sees it before it is applied. */
export interface ParsedChange {
  ops: ChangeOp[];
  /** Parsed quads of each insert op, index-aligned with `ops` (undefined for other ops). */
  inserted: (oxigraph.Quad[] | undefined)[];
}

/**
 * Called synchronously before a change touches memory: the snapshot writer's copy-on-write hook, part
 * of durability. Not a commit follower (those hear of a change once durable, on the change feed).
 */
export type ChangeObserver = (change: ParsedChange) => void;

export type OxTerm = oxigraph.NamedNode | oxigraph.BlankNode | oxigraph.Literal | oxigraph.DefaultGraph;

export function parseTerm(text: string | null): OxTerm | null {
  if (text === null) return null;
  if (text.startsWith('<') && text.endsWith('>')) return oxigraph.namedNode(text.slice(1, -1));
  // One N-Triples term: reuse Oxigraph's parser on a one-triple document.
  const [quad] = oxigraph.parse(`<urn:x:s> <urn:x:p> ${text} .`, { format: 'application/n-triples' });
  if (quad === undefined) throw new Error(`${text} is not an N-Triples term`);
  return quad.object as OxTerm;
}

export function datasetOptions(dataset?: QueryDataset): Record<string, unknown> {
  if (!dataset) return {};
  // Both must be given: with only default_graph, GRAPH ?g would still see every named graph.
  return {
    default_graph: dataset.defaultGraphs.map((g) => oxigraph.namedNode(g)),
    named_graphs: dataset.namedGraphs.map((g) => oxigraph.namedNode(g)),
  };
}

export function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n += 1;
  return text.endsWith('\n') ? n : n + 1;
}
