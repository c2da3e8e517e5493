import n3 from 'n3';
import type { DatasetCore, Term } from '@rdfjs/types';
import { readList, termKey } from './shacl.js';
import type { SmallDataset } from './small-dataset.js';

const { namedNode } = n3.DataFactory;
const SH = 'http://www.w3.org/ns/shacl#';
const RDF_FIRST = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#first';

/** The compiled check met a construct or a case it does not decide exactly: the engine decides. */
export class Undecided extends Error {}

export const undecided = (why: string): never => {
  throw new Undecided(why);
};

/** The value nodes of a property shape's path from a focus node. */
export type Path = (focus: Term, data: SmallDataset) => Term[];

function distinct(terms: Term[]): Term[] {
  if (terms.length < 2) return terms;
  const seen = new Map<string, Term>();
  for (const term of terms) seen.set(termKey(term), term);
  return [...seen.values()];
}

/** A property shape's path compiled (predicate, inverse, alternative and sequence paths of predicates). */
export function compilePath(shapes: DatasetCore, path: Term): Path {
  if (path.termType === 'NamedNode') {
    const p = namedNode(path.value);
    return (focus, data) => data.objectsOf(focus, p);
  }
  if (path.termType !== 'BlankNode') return undecided(`path ${path.value}`);
  const steps = [...shapes.match(path, null, null)];
  if (steps.some((q) => q.predicate.value === RDF_FIRST)) {
    // A sequence of predicates (`( as:object rdf:type )`).
    const predicates = readList(shapes, path);
    if (predicates.length === 0 || predicates.some((p) => p.termType !== 'NamedNode')) return undecided('a sequence path of other paths');
    const nodes = predicates.map((p) => namedNode(p.value));
    return (focus, data) => {
      let values: Term[] = [focus];
      for (const p of nodes) values = values.flatMap((v) => data.objectsOf(v, p));
      // Two intermediate nodes may lead to one value; how often the engine counts it is not decided here.
      if (values.length > 1 && distinct(values).length !== values.length) undecided('a value reached twice along a sequence path');
      return values;
    };
  }
  if (steps.length !== 1) return undecided('an unknown path');
  const [step] = steps;
  if (step!.predicate.value === `${SH}inversePath` && step!.object.termType === 'NamedNode') {
    const p = namedNode(step!.object.value);
    return (focus, data) => data.subjectsOf(p, focus);
  }
  if (step!.predicate.value === `${SH}alternativePath`) {
    const predicates = readList(shapes, step!.object);
    if (predicates.some((p) => p.termType !== 'NamedNode')) return undecided('a nested alternative path');
    const nodes = predicates.map((p) => namedNode(p.value));
    return (focus, data) => {
      const values = nodes.flatMap((p) => data.objectsOf(focus, p));
      // The engine's path walk may count a value reached by two of the predicates twice.
      if (values.length > 1 && distinct(values).length !== values.length) undecided('a value reached by two alternative predicates');
      return values;
    };
  }
  return undecided(`path sh:${step!.predicate.value.slice(SH.length)}`);
}
