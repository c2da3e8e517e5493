import n3 from 'n3';
import { Validator } from 'shacl-engine';
import type { CompileFunction, EngineFactory } from 'shacl-engine';
import type { DatasetCore, Quad, Term } from '@rdfjs/types';
import { SmallDataset } from './small-dataset.js';

const { DataFactory } = n3;
const SH = 'http://www.w3.org/ns/shacl#';

/** n3's term factory, plus the `dataset()` shacl-engine needs to build report graphs. */
export const engineFactory: EngineFactory = {
  ...(DataFactory as unknown as EngineFactory),
  dataset: (quads?: Quad[]) => new SmallDataset(quads ?? []),
};

/** A term as a string, equal for equal terms. */
export function termKey(term: Term): string {
  return term.termType === 'Literal'
    ? `L${term.value}\u0000${term.language}\u0000${term.datatype.value}`
    : `${term.termType}\u0000${term.value}`;
}

/* The engine's internals are untyped; these are the few members the sh:in compiler touches. */
interface ShapeInternals {
  ptr: { term: Term; dataset: DatasetCore };
}
interface ContextInternals {
  valueOrNode: { term: Term };
  test(ok: boolean, component: Term, args: Record<string, unknown>): void;
}

const RDF_FIRST = DataFactory.namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#first');
const RDF_REST = DataFactory.namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#rest');

/** The members of an RDF list, read straight from the dataset. (grapoi's list() extends a path
 * object per member, which is quadratic: seconds for the 7,000-member unit-code list.) */
export function readList(dataset: DatasetCore, head: Term): Term[] {
  const items: Term[] = [];
  const seen = new Set<string>();
  let node = head;
  while (node.termType === 'BlankNode' && !seen.has(node.value)) {
    seen.add(node.value);
    const first = [...dataset.match(node, RDF_FIRST, null)];
    const rest = [...dataset.match(node, RDF_REST, null)];
    if (first.length !== 1 || rest.length !== 1) throw new Error(`Invalid RDF list at _:${node.value}`);
    items.push(first[0]!.object);
    node = rest[0]!.object;
  }
  return items;
}

/**
 * sh:in, as the engine has it, except that the list is read without grapoi (see readList) and the
 * allowed values are joined into the message only when a value fails: the engine joins them on
 * every check, which for the unit-code list costs more than the rest of a payload's validation.
 */
const compileIn: CompileFunction = (shape) => {
  const { term, dataset } = (shape as ShapeInternals).ptr;
  const values = [...dataset.match(term as Quad['subject'], DataFactory.namedNode(`${SH}in`), null)].flatMap((q) =>
    readList(dataset, q.object),
  );
  const allowed = new Set(values.map(termKey));
  const component = DataFactory.namedNode(`${SH}InConstraintComponent`);
  const message = [DataFactory.literal('Value is not in {$in}')];
  const args = {
    get in(): string {
      return values.map((v) => v.value).join(', ');
    },
  };
  return {
    generic: (context: ContextInternals) => {
      context.test(allowed.has(termKey(context.valueOrNode.term)), component, { args, message, value: context.valueOrNode });
    },
  };
};

/** A shacl-engine Validator over a shapes graph, configured the way this node runs it (the W3C
 * conformance tests build theirs here too, so they test what the inbox uses). */
export function createShaclEngine(shapes: DatasetCore): Validator {
  return new Validator(shapes, {
    factory: engineFactory,
    validations: [[DataFactory.namedNode(`${SH}in`), compileIn]],
  });
}
