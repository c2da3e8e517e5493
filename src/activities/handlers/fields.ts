import type { Term } from '@rdfjs/types';
import { BadRequest, Unprocessable } from '../../errors.js';
import type { ActivityGraph } from '../activity-graph.js';

const GLOBAL_ID = /^urn:uuid:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export function required(graph: ActivityGraph, node: Term | undefined, property: string, where: string): string {
  const value = graph.text(node, property);
  if (value === undefined || value.length === 0) {
    // Spec 7.1: a missing required field is 400 (the shapes report it first; this is the last guard).
    throw new BadRequest(`${where}.${property} is required`, {
      results: [{ focusNode: where, path: property, message: `${property} is required`, severity: 'Violation', sourceShape: `${where}Shape`, value: null }],
    });
  }
  return value;
}

export function globalId(graph: ActivityGraph, node: Term | undefined, where: string): string {
  const value = required(graph, node, 'globalId', where);
  if (!GLOBAL_ID.test(value)) {
    throw new Unprocessable(`${where}.globalId must be urn:uuid:<uuid>`, {
      results: [{ focusNode: where, path: 'globalId', message: 'globalId must be urn:uuid:<uuid>', severity: 'Violation', sourceShape: `${where}Shape`, value }],
    });
  }
  return value;
}
