import type { Term } from '@rdfjs/types';
import { BadRequest, Unprocessable } from '../../errors.js';
import { canonicalGlobalId, identifierProblem, isGlobalIdForm } from '../../catalog/identities.js';
import type { ActivityGraph } from '../activity-graph.js';
import { SENT_ID } from '../item-order.js';
import type { LogWarning } from '../../catalog/log-entry.js';

export function required(graph: ActivityGraph, node: Term | undefined, property: string, where: string): string {
  const value = graph.text(node, property);
  if (value === undefined || value.length === 0) {
    // Spec 7.1: a missing required field is 400 (the shapes report it first; this is the last guard).
    throw new BadRequest(`${where}.${property} is required`, {
      results: [
        {
          focusNode: where,
          path: property,
          message: `${property} is required`,
          severity: 'Violation',
          sourceShape: `${where}Shape`,
          value: null,
        },
      ],
    });
  }
  return canonicalGlobalId(value);
}

/** The node's globalId in canonical form (core/catalog/identities.ts): `URN:UUID:6F1C…` is `urn:uuid:6f1c…`. */
export function globalId(graph: ActivityGraph, node: Term | undefined, where: string): string {
  const value = required(graph, node, 'globalId', where);
  if (!isGlobalIdForm(value)) {
    throw new Unprocessable(`${where}.globalId must be urn:uuid:<uuid>`, {
      results: [
        {
          focusNode: where,
          path: 'globalId',
          message: 'globalId must be urn:uuid:<uuid>',
          severity: 'Violation',
          sourceShape: `${where}Shape`,
          value,
        },
      ],
    });
  }
  return canonicalGlobalId(value);
}

/** 422 for an identifier in globalId form that is not the consignment's own globalId (core/catalog/identities.ts). */
export function checkIdentifier(identifier: string, ownGlobalId: string, where: string): void {
  const problem = identifierProblem(identifier, ownGlobalId);
  if (problem === undefined) return;
  throw new Unprocessable(`${where}.${problem}`, {
    results: [
      { focusNode: where, path: 'identifier', message: problem, severity: 'Violation', sourceShape: `${where}Shape`, value: identifier },
    ],
  });
}

/**
 * The root `id` sent beside the globalId (item-order.ts keeps it as `svc:sentId`), or undefined. One in
 * globalId form other than the consignment's own is not its sent id: a path id in that form names the
 * consignment with that globalId alone (core/catalog/identities.ts), so the consignment is taken, as an
 * object's own `@id` naming another's resource is (docs/decisions.md, "Identities"), and the entry
 * warns that the id does not name it.
 */
export function sentId(graph: ActivityGraph, ownGlobalId: string, where: string, warnings: LogWarning[]): string | undefined {
  const value = graph.object && graph.index.object(graph.object, SENT_ID);
  if (value?.termType !== 'Literal') return undefined;
  if (isGlobalIdForm(value.value) && canonicalGlobalId(value.value) !== ownGlobalId) {
    warnings.push({
      path: `${where}.id`,
      value: value.value,
      message: `id ${value.value} has the form of a globalId but is not this consignment's (${ownGlobalId}): the consignment is not found by it`,
    });
    return undefined;
  }
  return value.value;
}
