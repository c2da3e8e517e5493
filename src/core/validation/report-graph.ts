import n3 from 'n3';
import type { Quad, Quad_Object, Term } from '@rdfjs/types';
import type { EnginePathStep } from 'shacl-engine';
import { RDF } from '../rdf/namespaces.js';
import { DSH } from './readable.js';
import type { Leaf } from './readable-results.js';
import type { ValidationResult } from './types.js';

const { blankNode, literal, namedNode, quad } = n3.DataFactory;
const SH = 'http://www.w3.org/ns/shacl#';
const XSD_BOOLEAN = namedNode('http://www.w3.org/2001/XMLSchema#boolean');
const sh = (local: string) => namedNode(`${SH}${local}`);
const rdfType = namedNode(`${RDF}type`);

function listOf(items: Term[], out: Quad[]): Quad_Object {
  let head: Quad_Object = namedNode(`${RDF}nil`);
  for (const item of [...items].reverse()) {
    const cell = blankNode();
    out.push(quad(cell, namedNode(`${RDF}first`), item as Quad_Object));
    out.push(quad(cell, namedNode(`${RDF}rest`), head));
    head = cell;
  }
  return head;
}

function stepTerm(step: EnginePathStep, out: Quad[]): Quad_Object {
  let term: Quad_Object;
  if (step.predicates.length > 1) {
    term = blankNode();
    out.push(quad(term, sh('alternativePath'), listOf(step.predicates, out)));
  } else {
    term = step.predicates[0] as Quad_Object;
  }
  if (step.start === 'object') {
    const inverse = blankNode();
    out.push(quad(inverse, sh('inversePath'), term));
    term = inverse;
  }
  const quantified: Record<string, string> = { zeroOrMore: 'zeroOrMorePath', oneOrMore: 'oneOrMorePath', zeroOrOne: 'zeroOrOnePath' };
  const wrapper = quantified[step.quantifier];
  if (wrapper) {
    const node = blankNode();
    out.push(quad(node, sh(wrapper), term));
    term = node;
  }
  return term;
}

/**
 * The sh:ValidationReport for the results a person reads: one sh:ValidationResult per rule broken
 * (nested sh:node results are flattened as in the JSON), with the SHACL terms the engine gave and
 * two annotations, dsh:readablePath and dsh:readableFocusNode, carrying the same text as the JSON
 * (focus nodes are often blank nodes of the payload, which mean nothing outside it).
 */
export function buildReportQuads(conforms: boolean, leaves: Leaf[], results: ValidationResult[]): Quad[] {
  const out: Quad[] = [];
  const report = blankNode();
  out.push(quad(report, rdfType, sh('ValidationReport')));
  out.push(quad(report, sh('conforms'), literal(String(conforms), XSD_BOOLEAN)));
  leaves.forEach((leaf, i) => {
    const readable = results[i]!;
    const node = blankNode();
    out.push(quad(report, sh('result'), node));
    out.push(quad(node, rdfType, sh('ValidationResult')));
    out.push(quad(node, sh('resultSeverity'), sh(readable.severity)));
    if (leaf.focus) out.push(quad(node, sh('focusNode'), leaf.focus as Quad_Object));
    if (leaf.result?.path && leaf.result.path.length > 0) {
      const steps = leaf.result.path.map((step) => stepTerm(step, out));
      out.push(quad(node, sh('resultPath'), steps.length === 1 ? steps[0]! : listOf(steps, out)));
    }
    if (leaf.value) out.push(quad(node, sh('value'), leaf.value as Quad_Object));
    if (leaf.sourceShape) out.push(quad(node, sh('sourceShape'), leaf.sourceShape as Quad_Object));
    if (leaf.result) out.push(quad(node, sh('sourceConstraintComponent'), leaf.result.constraintComponent));
    out.push(quad(node, sh('resultMessage'), literal(readable.message)));
    if (readable.path !== null) out.push(quad(node, namedNode(`${DSH}readablePath`), literal(readable.path)));
    out.push(quad(node, namedNode(`${DSH}readableFocusNode`), literal(readable.focusNode)));
  });
  return out;
}

/**
 * Adds sh:Warning results to a report for forms the node accepted and normalised before validation
 * (a bare countryId, src/core/activities/payload-forms.ts): the shapes saw the normalised form, so these
 * results come from the payload's JSON, not from the engine.
 */
export function withWarningQuads(reportQuads: Quad[], warnings: ValidationResult[]): Quad[] {
  const report = reportQuads.find((q) => q.predicate.equals(rdfType) && q.object.equals(sh('ValidationReport')))?.subject;
  if (!report || warnings.length === 0) return reportQuads;
  const out = [...reportQuads];
  for (const warning of warnings) {
    const node = blankNode();
    out.push(quad(report, sh('result'), node));
    out.push(quad(node, rdfType, sh('ValidationResult')));
    out.push(quad(node, sh('resultSeverity'), sh('Warning')));
    if (warning.path) {
      out.push(quad(node, sh('resultPath'), namedNode(`https://vocabulary.uncefact.org/${warning.path.replace(/^.*\./, '')}`)));
      out.push(quad(node, namedNode(`${DSH}readablePath`), literal(warning.path)));
    }
    if (typeof warning.value === 'string') out.push(quad(node, sh('value'), literal(warning.value)));
    out.push(quad(node, sh('sourceShape'), namedNode(`${DSH}${String(warning.sourceShape).replace(/^dsh:/, '')}`)));
    out.push(quad(node, sh('resultMessage'), literal(warning.message)));
    out.push(quad(node, namedNode(`${DSH}readableFocusNode`), literal(warning.focusNode)));
  }
  return out;
}
