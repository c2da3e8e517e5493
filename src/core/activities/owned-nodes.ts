import type { Quad, Term } from '@rdfjs/types';
import { isNodeIri } from '../catalog/identities.js';
import { Unprocessable } from '../errors.js';
import { isObject, walkEntries } from '../util/json.js';
import type { ValidationResult } from '../validation/types.js';
import type { ActivityGraph } from './activity-graph.js';

/** The keys that give a node its IRI: `@id` and the `id` alias both bundled contexts define. */
const ID_KEYS = new Set(['@id', 'id']);

const same = (a: Term, b: Term): boolean => a.termType === b.termType && a.value === b.value;

/**
 * Nodes inside a payload are the publisher's own. The object itself is named by the node (a Create's
 * or Update's globalId, an Add's new event or revision graph), blank nodes get labels of this write,
 * and a named node a payload describes (gives properties, however it got there: a nested object, an
 * `id`, `@reverse`, `@included` reached from the object, an IRI-valued field with properties) is stored
 * under the IRI sent. Such an IRI in the node's own spaces (urn:uuid:, urn:dataspace:) names a
 * consignment, event, document, graph or record, someone else's or one yet to be published: its
 * triples would be statements about that resource in every reader's SPARQL answers and exports. So it
 * is refused (422, naming where it sits in the JSON) rather than renamed: a renamed node silently loses
 * the identity the sender meant, and nothing sent is dropped silently. Pointing at such a resource (an
 * IRI as a value, without properties) stays allowed.
 */
export function checkOwnedNodes(graph: ActivityGraph, body: unknown): void {
  const results = describedNodeResults(graph.objectQuads(), graph.object, body);
  if (results.length === 0) return;
  const first = results[0]!;
  throw new Unprocessable(`${first.focusNode}: ${first.message}${results.length > 1 ? ` (and ${results.length - 1} more)` : ''}`, {
    results,
  });
}

/** The rule as validation results, one per described IRI of the node's spaces; `root` is the node the payload is about. */
export function describedNodeResults(quads: readonly Quad[], root: Term | undefined, body: unknown): ValidationResult[] {
  const described = new Set<string>();
  for (const q of quads) {
    if (q.subject.termType === 'NamedNode' && !(root && same(q.subject, root)) && isNodeIri(q.subject.value))
      described.add(q.subject.value);
  }
  if (described.size === 0) return [];
  const found = pathsOf(body, described);
  return [...described].map((iri) => ({
    focusNode: found.get(iri) ?? 'object',
    path: null,
    value: iri,
    severity: 'Violation' as const,
    sourceShape: 'OwnedNodes',
    message: `${iri} names a resource of the node (a consignment, event, document, graph or record); a payload may point at it but not describe it`,
  }));
}

/** Where each IRI is given as a node's `@id`/`id` in the sent JSON, e.g. `object.consignor.@id`. */
function pathsOf(body: unknown, iris: Set<string>): Map<string, string> {
  const found = new Map<string, string>();
  walkEntries(body, (key, value, at) => {
    if (ID_KEYS.has(key) && typeof value === 'string' && iris.has(value)) {
      const known = found.get(value);
      if (known === undefined || at < known) found.set(value, at);
    }
    return isObject(value) || Array.isArray(value);
  });
  return found;
}
