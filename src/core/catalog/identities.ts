/**
 * The identity rules (README "Security", docs/decisions.md "Identities"): one place that says what a
 * globalId is, its canonical form, and which IRIs name the node's own resources.
 *
 * A globalId is `urn:uuid:<uuid>` (spec 2.4). RFC 4122 reads a UUID's hex digits in either case and
 * RFC 8141 the `urn` and `uuid` parts too, so `URN:UUID:6F1C…` is the same identity as
 * `urn:uuid:6f1c…`: it is compared, stored and looked up in lower case, else one consignment could be
 * published twice under two spellings.
 */
const GLOBAL_ID_FORM = /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string has the form of a globalId, in any case. */
export function isGlobalIdForm(value: string): boolean {
  return GLOBAL_ID_FORM.test(value);
}

/** The canonical (lower-case) form of a globalId; any other string is answered as it is. */
export function canonicalGlobalId(value: string): string {
  return isGlobalIdForm(value) ? value.toLowerCase() : value;
}

/**
 * IRIs the node mints for what it stores: globalIds, event and document-revision graphs, document
 * records, activities and system events are `urn:uuid:`; consignment records, policies, deliveries,
 * the node's graphs and an external store's skolemised blank nodes are `urn:dataspace:`. A payload may
 * point at such a resource but never describe one (give it properties): only the node names them, so
 * no organisation's triples can have another's resource as their subject.
 */
const NODE_SPACES = /^urn:(uuid|dataspace):/i;

export function isNodeIri(iri: string): boolean {
  return NODE_SPACES.test(iri);
}

/**
 * An identifier in globalId form must be its own consignment's globalId: a path id that is a globalId
 * names that consignment alone, so an identifier equal to another consignment's globalId (or to one
 * that may be published later) could only ever be a forgery of it. Answers why not, or undefined.
 */
export function identifierProblem(identifier: string, ownGlobalId: string): string | undefined {
  if (!isGlobalIdForm(identifier) || canonicalGlobalId(identifier) === ownGlobalId) return undefined;
  return `identifier ${identifier} has the form of a globalId (urn:uuid:…); an identifier in that form must be the consignment's own globalId (${ownGlobalId})`;
}
