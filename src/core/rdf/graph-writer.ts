import type { Quad, Term } from '@rdfjs/types';
import { iriToString, termToString } from './terms.js';
import { finish, STEP_UNITS, type Steps } from '../util/slices.js';

/**
 * Serialises payload quads into one named graph as N-Quads, renaming the root node to `rootIri`
 * and every blank node to a label unique to this write: jsonld.js numbers blank nodes from _:b0
 * on every call, and Oxigraph shares blank nodes across graphs.
 */
export function writeGraph(
  quads: readonly Quad[],
  graph: string,
  root: Term | undefined,
  rootIri: string | undefined,
  bnodePrefix: string,
): string {
  return finish(writeGraphSteps(quads, graph, root, rootIri, bnodePrefix));
}

/** writeGraph() in steps (util/slices.ts), for a large graph written on the event loop. */
export function* writeGraphSteps(
  quads: readonly Quad[],
  graph: string,
  root: Term | undefined,
  rootIri: string | undefined,
  bnodePrefix: string,
): Steps<string> {
  const g = iriToString(graph);
  const rootText = rootIri === undefined ? undefined : iriToString(rootIri);
  const rename = (term: Term): string => {
    if (root !== undefined && rootText !== undefined && term.termType === root.termType && term.value === root.value) return rootText;
    if (term.termType === 'BlankNode') return `_:${bnodePrefix}${term.value.replace(/^_:/, '').replace(/[^A-Za-z0-9]/g, '')}`;
    return termToString(term);
  };
  let out = '';
  let units = 0;
  for (const q of quads) {
    if (++units % STEP_UNITS === 0) yield;
    out += `${rename(q.subject)} ${termToString(q.predicate)} ${rename(q.object)} ${g} .\n`;
  }
  return out;
}
