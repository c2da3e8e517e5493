import type { Term } from '@rdfjs/types';
import n3 from 'n3';
import { UNECE } from '../rdf/namespaces.js';
import { compactIri, localName, readableTerm } from './readable.js';
import { termId, type Leaf, type PayloadMap, type TrailStep } from './readable-results.js';
import type { ValidationResult } from './types.js';

/** Turns one collected result (a Leaf) into the readable ValidationResult: focus, path, message. */

const { namedNode } = n3.DataFactory;
const SH = 'http://www.w3.org/ns/shacl#';
const IDENTIFIER = namedNode(`${UNECE}identifier`);

/** Reads a trail relative to the activity's object when the payload is an activity. */
function relative(trail: string[], isActivity: boolean): string[] {
  return isActivity && trail[0] === 'object' ? trail.slice(1) : trail;
}

export interface RenderContext {
  map: PayloadMap;
  isActivity: boolean;
  /** How the root itself is named when it is the focus: `activity`, or the bare object's type. */
  rootLabel: string;
  /** Values per (object, field), counted once: a payload with thousands of items and as many
   * results must not count them once per result. */
  valueCounts?: Map<string, number>;
}

function valueCount(context: RenderContext, parent: Term, segment: string): number {
  context.valueCounts ??= new Map();
  const parentId = termId(parent);
  const key = `${parentId} ${segment}`;
  let count = context.valueCounts.get(key);
  if (count === undefined) {
    const counts = new Map<string, number>();
    for (const q of context.map.dataset.match(parent, null, null)) {
      const field = compactIri(q.predicate.value);
      counts.set(field, (counts.get(field) ?? 0) + 1);
    }
    for (const [field, n] of counts) context.valueCounts.set(`${parentId} ${field}`, n);
    count = counts.get(segment) ?? 0;
    context.valueCounts.set(key, count);
  }
  return count;
}

/** `includedConsignment[HBL-2]`: when a field holds several objects, the one meant is named by its
 * identifier. */
function segmentFor(context: RenderContext, parent: Term | null, step: TrailStep): string {
  if (!parent || !step.node || step.node.termType === 'Literal') return step.segment;
  const { dataset } = context.map;
  if (valueCount(context, parent, step.segment) < 2) return step.segment;
  const identifier = [...dataset.match(step.node, IDENTIFIER, null)][0]?.object;
  return identifier ? `${step.segment}[${identifier.value}]` : step.segment;
}

function renderFocus(leaf: Leaf, context: RenderContext): string {
  const owner = leaf.owner;
  if (owner === null) return context.rootLabel;
  if (owner.termType === 'NamedNode') return compactIri(owner.value);
  if (owner.termType === 'Literal') return owner.value;
  const segments: string[] = [];
  let parent: Term | null = context.map.root;
  for (const step of leaf.ownerTrail) {
    segments.push(segmentFor(context, parent, step));
    parent = step.node;
  }
  if (segments.length === 0) {
    return context.map.root && !owner.equals(context.map.root) ? '(object outside the payload tree)' : context.rootLabel;
  }
  if (context.isActivity && segments.length === 1 && segments[0] === 'object') return 'object';
  return relative(segments, context.isActivity).join('.');
}

function genericMessage(component: string): string {
  switch (localName(component)) {
    case 'MinCountConstraintComponent':
      return 'A required value is missing';
    case 'MaxCountConstraintComponent':
      return 'Too many values';
    default:
      return `The value breaks ${localName(component).replace(/ConstraintComponent$/, '')}`;
  }
}

export function toValidationResult(leaf: Leaf, context: RenderContext): ValidationResult {
  const fullPath = [...leaf.ownerTrail, ...leaf.pathTrail].map((s) => s.segment);
  const pathSegments = relative(fullPath, context.isActivity);
  const path = pathSegments.length > 0 ? pathSegments.join('.') : null;
  const value = leaf.value ? readableTerm(leaf.value) : null;
  const component = leaf.result?.constraintComponent.value ?? '';
  let message = leaf.message || genericMessage(component);
  message = message.replace(/\{[$?]value\}/g, value ?? '');
  const last = leaf.pathTrail[leaf.pathTrail.length - 1]?.segment;
  if (component === `${SH}MinCountConstraintComponent` && last) message = `Missing ${last}: ${message}`;
  if (component === `${SH}MaxCountConstraintComponent` && last) message = `Too many values for ${last}: ${message}`;
  return {
    focusNode: renderFocus(leaf, context),
    path,
    message,
    severity: leaf.severity,
    sourceShape: leaf.sourceShape?.termType === 'NamedNode' ? compactIri(leaf.sourceShape.value) : '(inline shape)',
    value,
  };
}
