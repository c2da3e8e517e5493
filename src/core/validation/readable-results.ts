import type { DatasetCore, Quad, Term } from '@rdfjs/types';
import type { EnginePathStep, EngineResult } from 'shacl-engine';
import { compactIri, localName } from './readable.js';
import type { Severity } from './types.js';

const SH = 'http://www.w3.org/ns/shacl#';

export function termId(term: Term): string {
  return `${term.termType}:${term.value}`;
}

/** A step from a node to one of its values, as a payload writes it. */
export interface TrailStep {
  segment: string;
  /** The node reached, when known (it is not for the middle of a sequence path). */
  node: Term | null;
}

/** A broken rule (not a wrapper around nested results), placed in the payload. */
export interface Leaf {
  result: EngineResult | null;
  /** The SHACL focus node. */
  focus: Term | null;
  /** The object a person should look at: the focus, or for a rule on a field's value (a code, a
   * date) the object holding the field. */
  owner: Term | null;
  /** From the root to the owner. */
  ownerTrail: TrailStep[];
  /** From the owner to the value. */
  pathTrail: TrailStep[];
  value: Term | null;
  severity: Severity;
  sourceShape: Term | null;
  message: string;
}

/**
 * Where each object of the payload sits: the shortest chain of fields from the root (the activity,
 * or the bare object) to it. Payloads are trees, so this is the chain the sender wrote.
 */
export class PayloadMap {
  /** Per reachable node, the node it was reached from and the field: trails are built only for
   * the few nodes a result names (a valid payload needs none). */
  private readonly parents = new Map<string, { parent: Term; predicate: string; node: Term } | null>();

  constructor(
    readonly dataset: DatasetCore,
    readonly root: Term | null,
  ) {
    if (!root) return;
    this.parents.set(termId(root), null);
    const queue: Term[] = [root];
    for (let i = 0; i < queue.length; i++) {
      const node = queue[i]!;
      for (const q of dataset.match(node, null, null)) {
        if (q.object.termType === 'Literal') continue;
        const id = termId(q.object);
        if (this.parents.has(id)) continue;
        this.parents.set(id, { parent: node, predicate: q.predicate.value, node: q.object });
        queue.push(q.object);
      }
    }
  }

  reaches(node: Term): boolean {
    return node.termType !== 'Literal' && this.parents.has(termId(node));
  }

  trailOf(node: Term): TrailStep[] | undefined {
    if (!this.reaches(node)) return undefined;
    const trail: TrailStep[] = [];
    for (let link = this.parents.get(termId(node)); link; link = this.parents.get(termId(link.parent))) {
      trail.unshift({ segment: compactIri(link.predicate), node: link.node });
    }
    return trail;
  }
}

/** The steps of a result path from `focus` to `value`, naming the alternative that holds the value. */
export function resolvePath(dataset: DatasetCore, focus: Term, path: EnginePathStep[], value: Term | null): TrailStep[] {
  return path.map((step, index) => {
    const last = index === path.length - 1;
    let predicates = step.predicates;
    if (predicates.length > 1 && value && path.length === 1) {
      const holding = predicates.filter((p) =>
        step.start === 'subject'
          ? dataset.match(focus as Quad['subject'], p as Quad['predicate'], value as Quad['object']).size > 0
          : dataset.match(value as Quad['subject'], p as Quad['predicate'], focus as Quad['object']).size > 0,
      );
      if (holding.length > 0) predicates = holding.slice(0, 1);
    }
    let segment = predicates.map((p) => compactIri(p.value)).join('|');
    if (step.start === 'object') segment = `^${segment}`;
    if (step.quantifier === 'zeroOrMore') segment += '*';
    if (step.quantifier === 'oneOrMore') segment += '+';
    if (step.quantifier === 'zeroOrOne') segment += '?';
    return { segment, node: last ? value : null };
  });
}

const CARDINALITY = new Set([`${SH}MinCountConstraintComponent`, `${SH}MaxCountConstraintComponent`]);

function leafOf(result: EngineResult, owner: Term | null, ownerTrail: TrailStep[], pathTrail: TrailStep[]): Leaf {
  return {
    result,
    focus: result.focusNode.term,
    owner,
    ownerTrail,
    pathTrail,
    // A count is about the field, not one value (the engine passes the enclosing value along).
    value: CARDINALITY.has(result.constraintComponent.value) ? null : (result.value?.term ?? null),
    severity: localName(result.severity.value) as Severity,
    sourceShape: result.shape.ptr.term,
    message: result.message.map((m) => m.value).join(' '),
  };
}

/**
 * Turns the engine's results into leaves a person can read.
 *
 * A failed sh:node is one result wrapping the nested results; a person needs the nested rule that
 * broke, at its place in the payload, so wrappers are replaced by their leaves. (Other wrappers,
 * sh:or, sh:not, qualified shapes, are reported as they are: their parts are alternatives, not
 * rules.) A result from a shape that targets a field's values (a code list, a quantity) is placed at
 * the field, once per place the value appears.
 */
/** Where nested results sit: the object a person should look at, its trail, and the path from it
 * to the nested focus node. */
interface Placement {
  owner: Term | null;
  ownerTrail: TrailStep[];
  prefix: TrailStep[];
}

export function collectLeaves(
  map: PayloadMap,
  results: EngineResult[],
  targetPredicates: (shape: Term) => ReadonlySet<string> | undefined,
  out: Leaf[] = [],
  placement?: Placement,
  explanations?: ReadonlyMap<EngineResult, EngineResult[]>,
): Leaf[] {
  const { dataset } = map;
  for (const result of results) {
    const focus = result.focusNode.term;
    const value = result.value?.term ?? null;
    const pathTrail = result.path ? resolvePath(dataset, focus, result.path, value) : [];
    const owner = placement ? placement.owner : focus;
    const ownerTrail = placement ? placement.ownerTrail : (map.trailOf(focus) ?? []);
    const prefix = placement?.prefix ?? [];

    // A failed rule of shapes/payload-roots.ttl (an sh:or whose member is the object's shape) is
    // explained by that shape's own results, found by validating the value against it again.
    const nestedResults =
      explanations?.get(result) ?? (result.constraintComponent.value === `${SH}NodeConstraintComponent` ? result.results : []);
    if (nestedResults.length > 0 && value) {
      // The nested focus is the value. An object value is looked at itself; a value that is a code
      // or a literal is looked at in the object holding it.
      const isObject = value.termType === 'BlankNode' || (value.termType === 'NamedNode' && dataset.match(value, null, null).size > 0);
      const nested: Placement = isObject
        ? { owner: value, ownerTrail: map.trailOf(value) ?? [...ownerTrail, ...prefix, ...pathTrail], prefix: [] }
        : { owner, ownerTrail, prefix: [...prefix, ...pathTrail] };
      collectLeaves(map, nestedResults, targetPredicates, out, nested, explanations);
      continue;
    }

    const targets = placement ? undefined : targetPredicates(result.shape.ptr.term);
    if (targets && targets.size > 0) {
      const holders = [...dataset.match(null, null, focus as Quad['object'])].filter((q) => targets.has(q.predicate.value));
      if (holders.length > 0) {
        for (const q of holders) {
          out.push(
            leafOf(result, q.subject, map.trailOf(q.subject) ?? [], [
              { segment: compactIri(q.predicate.value), node: focus },
              ...pathTrail,
            ]),
          );
        }
        continue;
      }
    }
    out.push(leafOf(result, owner, ownerTrail, [...prefix, ...pathTrail]));
  }
  return out;
}

/**
 * A literal where an object belongs fails its shape's node kind, and then every required field of
 * that shape as well, since a literal has no fields. Only the first says what is wrong.
 */
export function withoutConsequences(leaves: Leaf[]): Leaf[] {
  const wrongKind = new Set(
    leaves
      .filter((l) => l.focus?.termType === 'Literal' && l.result?.constraintComponent.value === `${SH}NodeKindConstraintComponent`)
      .map((l) => termId(l.focus!)),
  );
  if (wrongKind.size === 0) return leaves;
  return leaves.filter(
    (l) => !(l.focus && wrongKind.has(termId(l.focus)) && l.result?.constraintComponent.value === `${SH}MinCountConstraintComponent`),
  );
}

export function leafKey(leaf: Leaf): string {
  return [
    leaf.owner ? termId(leaf.owner) : '',
    leaf.focus ? termId(leaf.focus) : '',
    leaf.pathTrail.map((s) => s.segment).join('.'),
    leaf.sourceShape ? termId(leaf.sourceShape) : '',
    leaf.result?.constraintComponent.value ?? leaf.message,
    leaf.value ? termId(leaf.value) : '',
  ].join('|');
}
