import n3 from 'n3';
import type { Quad, Term } from '@rdfjs/types';
import type { EngineResult, Validator } from 'shacl-engine';
import { shapesDir as defaultShapesDir } from '../project-paths.js';
import { RDF_TYPE } from '../rdf/namespaces.js';
import { loadShapes } from './load-shapes.js';
import { detachedProblems, findRoots, OBJECT_SHAPES } from './payload-roots.js';
import type { StructureProblem } from './payload-roots.js';
import { compactIri, DSH } from './readable.js';
import { collectLeaves, leafKey, PayloadMap, withoutConsequences } from './readable-results.js';
import type { Leaf, TrailStep } from './readable-results.js';
import { toValidationResult, type RenderContext } from './readable-render.js';
import { allConform, CompiledShapes } from './compiled-shapes.js';
import { buildReportQuads } from './report-graph.js';
import { createShaclEngine, readList } from './shacl.js';
import { SmallDataset } from './small-dataset.js';
import { TargetIndex } from './targets.js';
import type { PayloadValidator, ValidationReport, ValidationResult } from './types.js';

export type { PayloadValidator, ValidationReport, ValidationResult } from './types.js';

const { DataFactory } = n3;
const SH = 'http://www.w3.org/ns/shacl#';
const STRUCTURE_SHAPE = DataFactory.namedNode(`${DSH}PayloadStructureShape`);

/** Quads from jsonld.js are plain objects; the engine compares terms with `.equals`, so they are
 * rebuilt with n3's factory. */
function toTerm(term: Term): Term {
  switch (term.termType) {
    case 'NamedNode':
      return DataFactory.namedNode(term.value);
    case 'BlankNode':
      return DataFactory.blankNode(term.value);
    case 'Literal':
      return DataFactory.literal(term.value, term.language || DataFactory.namedNode(term.datatype.value));
    case 'DefaultGraph':
      return DataFactory.defaultGraph();
    default:
      return term;
  }
}

function toQuad(q: Quad): Quad {
  return DataFactory.quad(
    toTerm(q.subject) as Quad['subject'],
    toTerm(q.predicate) as Quad['predicate'],
    toTerm(q.object) as Quad['object'],
    toTerm(q.graph) as Quad['graph'],
  );
}

/** A payload's quads as the engine reads them: the default graph as the data graph, and the
 * quads of named graphs apart (a payload must not have any). */
export function payloadData(input: Quad[]): { data: SmallDataset; namedGraphQuads: Quad[] } {
  const defaultGraphQuads: Quad[] = [];
  const namedGraphQuads: Quad[] = [];
  for (const q of input) {
    const converted = toQuad(q);
    (converted.graph.termType === 'DefaultGraph' ? defaultGraphQuads : namedGraphQuads).push(converted);
  }
  // jsonld.js emits each triple once; a repeat would not change any SHACL result anyway.
  return { data: SmallDataset.fromDistinct(defaultGraphQuads), namedGraphQuads };
}

function structureLeaf(problem: StructureProblem, map: PayloadMap): Leaf {
  const pathTrail: TrailStep[] = problem.path ? [{ segment: problem.path, node: problem.value }] : [];
  return {
    result: null,
    focus: problem.focus,
    owner: problem.focus,
    ownerTrail: problem.focus ? (map.trailOf(problem.focus) ?? []) : [],
    pathTrail,
    value: problem.value,
    severity: 'Violation',
    sourceShape: STRUCTURE_SHAPE,
    message: problem.message,
  };
}

function rootLabel(dataset: SmallDataset, root: Term | null, isActivity: boolean): string {
  if (isActivity) return 'activity';
  if (!root) return '(payload)';
  const type = [...dataset.match(root, DataFactory.namedNode(RDF_TYPE), null)][0]?.object;
  return type ? compactIri(type.value) : '(payload)';
}

export interface PayloadValidatorOptions {
  /** Folder of *.ttl shape files; the project's shapes/ by default. */
  shapesDir?: string;
  /** Decide "no result" with the shapes' compiled checks before running the engine (default true);
   * false runs the engine on every payload (the tests compare the two). */
  compiledChecks?: boolean;
}

/** Compiles every shape now rather than on the first request that needs it (the engine compiles
 * lazily, and the unit-code list alone takes a while). */
function precompile(engine: Validator, shapes: SmallDataset): void {
  const internals = engine as unknown as {
    shapesPtr: { node(terms: Term[]): unknown };
    shape(ptr: unknown): { shapeValidator: { compiled: unknown } } | null;
  };
  // Internals of shacl-engine 1.x: without them the engine still compiles, lazily.
  if (typeof internals.shape !== 'function' || typeof internals.shapesPtr?.node !== 'function') return;
  const candidates = new Map<string, Term>();
  for (const q of shapes.match(null, DataFactory.namedNode(RDF_TYPE), null)) {
    if (q.object.value === `${SH}NodeShape` || q.object.value === `${SH}PropertyShape`) candidates.set(q.subject.value, q.subject);
  }
  for (const predicate of ['property', 'node']) {
    for (const q of shapes.match(null, DataFactory.namedNode(`${SH}${predicate}`), null)) candidates.set(q.object.value, q.object);
  }
  for (const term of candidates.values()) {
    void internals.shape(internals.shapesPtr.node([term]))?.shapeValidator.compiled;
  }
}

/** Shapes whose sh:or has one of the payload object's shapes as a member (the rules of
 * shapes/payload-roots.ttl), each with those members. */
function objectShapesOfRules(shapes: SmallDataset): Map<string, Term[]> {
  const objectShapes = new Set(OBJECT_SHAPES.map((s) => s.value));
  const rules = new Map<string, Term[]>();
  for (const q of shapes.match(null, DataFactory.namedNode(`${SH}or`), null)) {
    const members = readList(shapes, q.object).filter((t) => objectShapes.has(t.value));
    if (members.length > 0) rules.set(q.subject.value, members);
  }
  return rules;
}

/** Parses and compiles the shapes once; `validate` then runs per payload. */
export async function createPayloadValidator(options: PayloadValidatorOptions = {}): Promise<PayloadValidator> {
  const shapes = new SmallDataset(loadShapes(options.shapesDir ?? defaultShapesDir));
  const engine = createShaclEngine(shapes);
  precompile(engine, shapes);
  const targets = new TargetIndex(shapes);
  const targetPredicates = (shape: Term) => targets.objectsOf.get(shape.value);

  const ruleShapes = objectShapesOfRules(shapes);
  const compiled = options.compiledChecks === false ? undefined : new CompiledShapes(shapes);

  /** For each failed rule of shapes/payload-roots.ttl, the results of the object's own shape: the
   * engine stops at the first sh:or member that holds and reports none of their results, and a
   * person needs the field that is missing, not "the rule failed". Only failures pay for this. */
  async function explain(data: SmallDataset, results: EngineResult[]): Promise<Map<EngineResult, EngineResult[]> | undefined> {
    let explanations: Map<EngineResult, EngineResult[]> | undefined;
    for (const result of results) {
      if (result.constraintComponent.value !== `${SH}OrConstraintComponent`) continue;
      const members = ruleShapes.get(result.shape.ptr.term.value);
      const value = result.value?.term;
      if (!members || !value) continue;
      const report = await engine.validate(
        { dataset: data, terms: [value] },
        members.map((s) => ({ terms: [s] })),
      );
      (explanations ??= new Map()).set(result, report.results);
    }
    return explanations;
  }

  async function validate(input: Quad[]): Promise<ValidationReport> {
    const { data, namedGraphQuads } = payloadData(input);
    const roots = findRoots(data, namedGraphQuads);
    const map = new PayloadMap(data, roots.root);
    const problems = roots.root ? [...roots.problems, ...detachedProblems(data, (node) => map.reaches(node))] : roots.problems;
    const focus = targets.resolve(data);
    // Most payloads are valid: when the compiled checks say the engine would report nothing, its
    // report is the empty one, and neither the engine nor the readable results need to run.
    if (problems.length === 0 && compiled && allConform(compiled, focus, data)) {
      return { conforms: true, results: [], missingRequired: false, reportQuads: () => buildReportQuads(true, [], []) };
    }
    const leaves: Leaf[] = problems.map((problem) => structureLeaf(problem, map));
    for (const { shape, focusNodes } of focus) {
      const report = await engine.validate({ dataset: data, terms: focusNodes }, [{ terms: [shape] }]);
      const results = report.results;
      collectLeaves(map, results, targetPredicates, leaves, undefined, await explain(data, results));
    }
    const seen = new Set<string>();
    const unique = withoutConsequences(leaves).filter((leaf) => {
      const key = leafKey(leaf);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const context: RenderContext = { map, isActivity: roots.isActivity, rootLabel: rootLabel(data, roots.root, roots.isActivity) };
    const results: ValidationResult[] = unique.map((leaf) => toValidationResult(leaf, context));
    const conforms = !results.some((r) => r.severity === 'Violation');
    let quads: Quad[] | undefined;
    const missingRequired = unique.some(
      (leaf) => leaf.severity === 'Violation' && leaf.result?.constraintComponent.value === `${SH}MinCountConstraintComponent`,
    );
    return {
      conforms,
      results,
      missingRequired,
      reportQuads: () => (quads ??= buildReportQuads(conforms, unique, results)),
    };
  }

  return { validate };
}
