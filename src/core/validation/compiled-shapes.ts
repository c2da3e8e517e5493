import n3 from 'n3';
import type { DatasetCore, Quad, Term } from '@rdfjs/types';
import { compileDatatype } from 'shacl-engine/lib/validations/type.js';
import { RDF_TYPE } from '../rdf/namespaces.js';
import { readList, termKey } from './shacl.js';
import type { SmallDataset } from './small-dataset.js';
import { compilePath, undecided, Undecided } from './compiled-paths.js';

export { Undecided };

const { namedNode } = n3.DataFactory;
const SH = 'http://www.w3.org/ns/shacl#';
const RDFS_SUBCLASS_OF = namedNode('http://www.w3.org/2000/01/rdf-schema#subClassOf');
const TYPE = namedNode(RDF_TYPE);

/** Whether a node meets a shape with no validation result of any severity. */
type Check = (node: Term, data: SmallDataset) => boolean;

/** Shape parameters that are no constraint (or are read by the constraint they belong to). */
const NOT_CONSTRAINTS = new Set(
  [
    'path',
    'targetClass',
    'targetNode',
    'targetObjectsOf',
    'targetSubjectsOf',
    'message',
    'severity',
    'name',
    'description',
    'order',
    'group',
    'deactivated',
    'defaultValue',
  ].map((local) => `${SH}${local}`),
);

const NODE_KINDS: Record<string, readonly string[]> = {
  [`${SH}BlankNode`]: ['BlankNode'],
  [`${SH}BlankNodeOrIRI`]: ['BlankNode', 'NamedNode'],
  [`${SH}BlankNodeOrLiteral`]: ['BlankNode', 'Literal'],
  [`${SH}IRI`]: ['NamedNode'],
  [`${SH}IRIOrLiteral`]: ['NamedNode', 'Literal'],
  [`${SH}Literal`]: ['Literal'],
};

/**
 * The shapes' constraints compiled to plain functions over a payload's data graph, for the subset
 * of SHACL Core the node's shapes use (predicate, inverse and alternative paths; sh:minCount,
 * maxCount, nodeKind, datatype, in, pattern, class, node, property, and, or, not). A check answers
 * exactly the question "does the engine report nothing for this node and shape?": true only when
 * shacl-engine would give no result at all (a Warning is a result too), false only when it would
 * give one. Anything else, a parameter it does not know, an sh:flags, a recursive shape, a pattern
 * on a blank node, throws Undecided, and the caller runs the engine. shacl-engine counts a nested
 * shape as met when it gives no result of any severity, which is the same question, so the checks
 * nest without reading sh:severity. The proof that the answers agree with the engine's is
 * test/unit/core/validation/compiled-shapes.test.ts, over every fixture and random payloads.
 */
export class CompiledShapes {
  private readonly checks = new Map<string, Check>();
  private readonly byTerm = new WeakMap<Term, Check>();

  constructor(private readonly shapes: DatasetCore) {}

  /** True when the engine would report nothing for `focus` against `shape`, false when it would
   * report something; throws Undecided when the compiled check cannot tell. */
  conforms(shape: Term, focus: Term, data: SmallDataset): boolean {
    // The targets hand over the same shape term objects every time: found by identity first.
    let check = this.byTerm.get(shape);
    if (!check) this.byTerm.set(shape, (check = this.check(shape)));
    return check(focus, data);
  }

  private check(shape: Term): Check {
    const id = termKey(shape);
    let found = this.checks.get(id);
    if (!found) {
      let compiled: Check;
      try {
        compiled = this.compile(shape);
      } catch (error) {
        // An unreadable shape (a broken list) too: the engine reports it in its own way.
        const why = (error as Error).message;
        compiled = () => undecided(why);
      }
      this.checks.set(id, (found = compiled));
    }
    return found;
  }

  /** A nested shape, compiled when first used (shapes refer to each other, and to themselves). */
  private lazy(shape: Term): Check {
    let resolved: Check | undefined;
    return (node, data) => (resolved ??= this.check(shape))(node, data);
  }

  private objects(subject: Term, predicate: string): Term[] {
    return [...this.shapes.match(subject as Quad['subject'], namedNode(predicate), null)].map((q) => q.object);
  }

  /** The shapes a shape refers to (sh:node, sh:property, sh:not, members of sh:and and sh:or). */
  private references(shape: Term): Term[] {
    const found: Term[] = [];
    for (const q of this.shapes.match(shape, null, null)) {
      const local = q.predicate.value.startsWith(SH) ? q.predicate.value.slice(SH.length) : '';
      if (local === 'node' || local === 'property' || local === 'not') found.push(q.object);
      else if (local === 'and' || local === 'or') found.push(...readList(this.shapes, q.object));
    }
    return found;
  }

  /** Whether the shape reaches itself. The engine answers a recursive shape from a partial cache
   * (and on cyclic data a plain walk would not end): the compiled check leaves such shapes to it.
   * Without recursion the nesting of the checks is bounded by the shapes, whatever the data. */
  private recursive(shape: Term): boolean {
    const start = termKey(shape);
    const seen = new Set<string>();
    const stack = this.references(shape);
    while (stack.length > 0) {
      const next = stack.pop()!;
      const id = termKey(next);
      if (id === start) return true;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...this.references(next));
    }
    return false;
  }

  private compile(shape: Term): Check {
    if (this.recursive(shape)) undecided(`${shape.value} refers to itself`);
    const quads = [...this.shapes.match(shape, null, null)];
    const deactivated = quads.filter((q) => q.predicate.value === `${SH}deactivated`);
    if (deactivated.length > 0) {
      const value = deactivated.length === 1 ? deactivated[0]!.object : undefined;
      if (
        value?.termType === 'Literal' &&
        value.datatype.value.endsWith('#boolean') &&
        (value.value === 'true' || value.value === 'false')
      ) {
        if (value.value === 'true') return () => true; // the engine compiles no constraint for it
      } else {
        undecided(`sh:deactivated of ${shape.value}`);
      }
    }
    const paths = this.objects(shape, `${SH}path`);
    if (paths.length > 1) undecided(`several paths on ${shape.value}`);
    const path = paths.length === 1 ? compilePath(this.shapes, paths[0]!) : undefined;

    const valueChecks: Check[] = [];
    const countChecks: ((count: number) => boolean)[] = [];
    const single = (predicate: string): Term => {
      const values = this.objects(shape, `${SH}${predicate}`);
      if (values.length !== 1) undecided(`${values.length} values of sh:${predicate} on ${shape.value}`);
      return values[0]!;
    };
    const done = new Set<string>();
    for (const q of quads) {
      const predicate = q.predicate.value;
      if (!predicate.startsWith(SH) || NOT_CONSTRAINTS.has(predicate) || done.has(predicate)) continue;
      done.add(predicate);
      const local = predicate.slice(SH.length);
      switch (local) {
        case 'minCount':
        case 'maxCount': {
          if (!path) undecided(`sh:${local} on node shape ${shape.value}`);
          const limit = parseInt(single(local).value);
          if (!Number.isFinite(limit)) undecided(`sh:${local} of ${shape.value}`);
          countChecks.push(local === 'minCount' ? (n) => n >= limit : (n) => n <= limit);
          break;
        }
        case 'nodeKind': {
          const kinds = NODE_KINDS[single(local).value] ?? undecided(`sh:nodeKind of ${shape.value}`);
          valueChecks.push((value) => kinds.includes(value.termType));
          break;
        }
        case 'datatype': {
          // The engine's own check (datatype and lexical form), so the two cannot differ.
          const datatype = single(local);
          const engine = compileDatatype({ ptr: { out: () => ({ term: datatype }) } }).generic;
          valueChecks.push((value) => {
            let ok = true;
            engine({ valueOrNode: { term: value }, test: (result: boolean) => (ok = result), factory: n3.DataFactory });
            return ok;
          });
          break;
        }
        case 'in': {
          const allowed = new Set(readList(this.shapes, single(local)).map(termKey));
          valueChecks.push((value) => allowed.has(termKey(value)));
          break;
        }
        case 'pattern': {
          if (this.objects(shape, `${SH}flags`).length > 0) undecided(`sh:flags on ${shape.value}`);
          const regex = new RegExp(single(local).value);
          valueChecks.push((value) => (value.termType === 'BlankNode' ? undecided('sh:pattern on a blank node') : regex.test(value.value)));
          break;
        }
        case 'class': {
          for (const c of this.objects(shape, predicate)) {
            const classes = this.subclassesOf(c);
            valueChecks.push((value, data) => data.objectsOf(value, TYPE).some((t) => classes.has(termKey(t))));
          }
          break;
        }
        case 'node':
        case 'property': {
          for (const nested of this.objects(shape, predicate).map((s) => this.lazy(s))) {
            // sh:property nests a property shape on the same node; sh:node checks the node against a node shape.
            valueChecks.push(nested);
          }
          break;
        }
        case 'and':
        case 'or': {
          for (const list of this.objects(shape, predicate)) {
            const members = readList(this.shapes, list).map((s) => this.lazy(s));
            valueChecks.push(
              local === 'and'
                ? (value, data) => members.every((m) => m(value, data))
                : (value, data) => members.some((m) => m(value, data)),
            );
          }
          break;
        }
        case 'not': {
          const inner = this.lazy(single(local));
          valueChecks.push((value, data) => !inner(value, data));
          break;
        }
        default:
          undecided(`sh:${local} on ${shape.value}`);
      }
    }

    const meets = (value: Term, data: SmallDataset): boolean => {
      for (const check of valueChecks) if (!check(value, data)) return false;
      return true;
    };
    if (!path) return meets;
    return (focus, data) => {
      const values = path(focus, data);
      for (const check of countChecks) if (!check(values.length)) return false;
      for (const value of values) if (!meets(value, data)) return false;
      return true;
    };
  }

  /** The class and its subclasses in the shapes graph (the engine resolves sh:class there). */
  private subclassesOf(c: Term): Set<string> {
    const found = new Set<string>([termKey(c)]);
    const queue = [c];
    while (queue.length > 0) {
      for (const q of this.shapes.match(null, RDFS_SUBCLASS_OF, queue.pop())) {
        if (!found.has(termKey(q.subject))) {
          found.add(termKey(q.subject));
          queue.push(q.subject);
        }
      }
    }
    return found;
  }
}

/** True when every (shape, focus node) pair is decided "no result"; false when one is not, or
 * cannot be decided (the engine then validates the payload, and its report is the answer). */
export function allConform(compiled: CompiledShapes, pairs: { shape: Term; focusNodes: Term[] }[], data: SmallDataset): boolean {
  try {
    return pairs.every(({ shape, focusNodes }) => focusNodes.every((node) => compiled.conforms(shape, node, data)));
  } catch {
    // Undecided, or a fault in a check: either way the engine decides, so a bug here costs time only.
    return false;
  }
}
