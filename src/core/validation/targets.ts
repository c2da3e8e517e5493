import type { DatasetCore, NamedNode, Quad, Term } from '@rdfjs/types';
import n3 from 'n3';
import { RDF_TYPE } from '../rdf/namespaces.js';

const SH = 'http://www.w3.org/ns/shacl#';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const { namedNode } = n3.DataFactory;

function isShape(shapes: DatasetCore, term: Term): boolean {
  return [...shapes.match(term, null, null)].some(
    (q) => q.predicate.value === RDF_TYPE && (q.object.value === `${SH}NodeShape` || q.object.value === `${SH}PropertyShape`),
  );
}

function termId(term: Term): string {
  return `${term.termType}:${term.value}`;
}

interface TargetedShape {
  shape: Term;
  /** Focus nodes that cannot fail the shape (its only constraint is a node kind they have, or an
   * sh:or whose first member they meet by being the value of a field). */
  trivially?: (focus: Term, data: DatasetCore) => boolean;
}

export interface ShapeFocus {
  shape: Term;
  focusNodes: Term[];
}

/**
 * SHACL target resolution (spec 2.1.3) for the shapes that declare targets, done in one pass over
 * a payload's quads. shacl-engine resolves targets by looking up every target predicate of every
 * shape (650 D23B fields in d23b-ranges.ttl) in the data; a payload uses a few dozen of them, so
 * walking the payload instead is several times faster. The result is the same set of focus nodes,
 * handed to the engine explicitly.
 */
export class TargetIndex {
  private readonly byClass = new Map<string, TargetedShape[]>();
  private readonly byObjectsOf = new Map<string, TargetedShape[]>();
  private readonly bySubjectsOf = new Map<string, TargetedShape[]>();
  private readonly nodes: { shape: TargetedShape; node: Term }[] = [];
  /** Per shape, the fields whose values it targets. */
  readonly objectsOf = new Map<string, Set<string>>();

  constructor(shapes: DatasetCore) {
    const targeted = new Map<string, TargetedShape>();
    const entry = (shape: Term): TargetedShape => {
      let found = targeted.get(termId(shape));
      if (!found) targeted.set(termId(shape), (found = { shape, trivially: trivialCheck(shapes, shape) ?? parentCheck(shapes, shape) }));
      return found;
    };
    const add = (index: Map<string, TargetedShape[]>, key: string, shape: TargetedShape): void => {
      const list = index.get(key);
      if (!list) index.set(key, [shape]);
      else if (!list.includes(shape)) list.push(shape);
    };
    for (const q of shapes) {
      switch (q.predicate.value) {
        case `${SH}targetClass`:
          add(this.byClass, q.object.value, entry(q.subject));
          break;
        case `${SH}targetObjectsOf`: {
          add(this.byObjectsOf, q.object.value, entry(q.subject));
          const set = this.objectsOf.get(q.subject.value) ?? new Set<string>();
          set.add(q.object.value);
          this.objectsOf.set(q.subject.value, set);
          break;
        }
        case `${SH}targetSubjectsOf`:
          add(this.bySubjectsOf, q.object.value, entry(q.subject));
          break;
        case `${SH}targetNode`:
          this.nodes.push({ shape: entry(q.subject), node: q.object });
          break;
        case `${SH}target`:
          throw new Error(`${q.subject.value}: SPARQL-based targets (sh:target) are not supported`);
        case RDF_TYPE:
          // A shape that is also a class targets its instances implicitly (SHACL 2.1.3.3); the
          // node's shapes do not do that, and this index would miss it.
          if (q.object.value === `${RDFS}Class` && isShape(shapes, q.subject)) {
            throw new Error(`${q.subject.value}: implicit class targets are not supported; use sh:targetClass`);
          }
      }
    }
  }

  /** Every (shape, focus nodes) pair the payload gives, in a stable order. */
  resolve(data: DatasetCore): ShapeFocus[] {
    const found = new Map<TargetedShape, Map<string, Term>>();
    const focus = (shape: TargetedShape, node: Term): void => {
      if (shape.trivially?.(node, data)) return;
      let nodes = found.get(shape);
      if (!nodes) found.set(shape, (nodes = new Map()));
      nodes.set(termId(node), node);
    };
    for (const q of data) {
      for (const shape of this.byObjectsOf.get(q.predicate.value) ?? []) focus(shape, q.object);
      for (const shape of this.bySubjectsOf.get(q.predicate.value) ?? []) focus(shape, q.subject);
      // Class targets without rdfs:subClassOf: payloads carry no class hierarchy, and a payload
      // cannot widen a target by declaring one (the shapes decide what applies, not the data).
      if (q.predicate.value === RDF_TYPE) for (const shape of this.byClass.get(q.object.value) ?? []) focus(shape, q.subject);
    }
    for (const { shape, node } of this.nodes) focus(shape, node);
    return [...found.entries()].map(([shape, nodes]) => ({ shape: shape.shape, focusNodes: [...nodes.values()] }));
  }
}

/**
 * A shape whose one constraint is sh:nodeKind sh:Literal (or sh:BlankNodeOrIRI) cannot fail on a
 * literal (or a node): such focus nodes need not be handed to the engine. The generated range
 * shapes for text fields and for objects of undescribed classes are of this kind, and text values
 * are most of a payload.
 */
function constraintsOf(shapes: DatasetCore, shape: Term): Quad[] {
  return [...shapes.match(shape as never, null, null)].filter(
    (q) =>
      q.predicate.value.startsWith(SH) &&
      !/#(target\w*|message|severity|name|description|order|group|deactivated)$/.test(q.predicate.value),
  );
}

function listItems(shapes: DatasetCore, head: Term): Term[] {
  const items: Term[] = [];
  for (let node = head, guard = 0; node.value !== `${RDF}nil` && guard < 10000; guard++) {
    const first = [...shapes.match(node, namedNode(`${RDF}first`), null)][0];
    const rest = [...shapes.match(node, namedNode(`${RDF}rest`), null)][0];
    if (!first || !rest) return [];
    items.push(first.object);
    node = rest.object;
  }
  return items;
}

/** The predicate P of a property shape that is exactly `sh:path [ sh:inversePath P ] ; sh:minCount 1`. */
function inverseOf(shapes: DatasetCore, shape: Term): string | undefined {
  const constraints = constraintsOf(shapes, shape);
  if (constraints.length !== 2) return undefined;
  const path = constraints.find((q) => q.predicate.value === `${SH}path`)?.object;
  const min = constraints.find((q) => q.predicate.value === `${SH}minCount`)?.object;
  if (!path || path.termType !== 'BlankNode' || min?.value !== '1') return undefined;
  const steps = [...shapes.match(path, null, null)];
  if (steps.length !== 1 || steps[0]!.predicate.value !== `${SH}inversePath` || steps[0]!.object.termType !== 'NamedNode') return undefined;
  return steps[0]!.object.value;
}

/**
 * The rules of shapes/payload-roots.ttl are `sh:or ( <has a parent> ... )`, the first member a node
 * shape that is an sh:or of inverse-path checks (`dsh:HasEventParent`). A focus node that is the value
 * of one of those fields meets the first member, hence the rule: it need not be handed to the engine.
 * That is most of them (an Add's object, nested objects), and an engine call costs more than the rule.
 */
function parentCheck(shapes: DatasetCore, shape: Term): ((focus: Term, data: DatasetCore) => boolean) | undefined {
  const constraints = constraintsOf(shapes, shape);
  if (constraints.length !== 1 || constraints[0]!.predicate.value !== `${SH}or`) return undefined;
  const first = listItems(shapes, constraints[0]!.object)[0];
  if (!first) return undefined;
  const inner = constraintsOf(shapes, first);
  if (inner.length !== 1 || inner[0]!.predicate.value !== `${SH}or`) return undefined;
  const predicates: NamedNode[] = [];
  for (const member of listItems(shapes, inner[0]!.object)) {
    const predicate = inverseOf(shapes, member);
    if (!predicate) return undefined;
    predicates.push(namedNode(predicate));
  }
  if (predicates.length === 0) return undefined;
  // One lookup of the quads pointing at the focus node, not one per parent field (there are dozens).
  const fields = new Set(predicates.map((p) => p.value));
  return (focus, data) => {
    if (focus.termType === 'Literal') return false;
    for (const q of data.match(null, null, focus)) if (fields.has(q.predicate.value)) return true;
    return false;
  };
}

function trivialCheck(shapes: DatasetCore, shape: Term): ((focus: Term) => boolean) | undefined {
  const constraints = constraintsOf(shapes, shape);
  if (constraints.length !== 1 || constraints[0]!.predicate.value !== `${SH}nodeKind`) return undefined;
  switch (constraints[0]!.object.value) {
    case `${SH}Literal`:
      return (focus) => focus.termType === 'Literal';
    case `${SH}BlankNodeOrIRI`:
      return (focus) => focus.termType !== 'Literal';
    default:
      return undefined;
  }
}
