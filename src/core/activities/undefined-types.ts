import type { Quad } from '@rdfjs/types';
import { Unprocessable } from '../errors.js';
import { ACTIVITYSTREAMS_CONTEXT_URL, RDF_TYPE } from '../rdf/namespaces.js';
import { d23bContext, documentLoader } from '../rdf/document-loader.js';
import { isObject, walkEntries } from '../util/json.js';

/** The term names of the bundled contexts an activity is read under (D23B + service, ActivityStreams). */
async function termNames(): Promise<Set<string>> {
  const names = new Set<string>();
  const add = (context: unknown) => {
    for (const layer of Array.isArray(context) ? context : [context]) if (isObject(layer)) Object.keys(layer).forEach((k) => names.add(k));
  };
  add(d23bContext());
  const activityStreams = (await documentLoader(ACTIVITYSTREAMS_CONTEXT_URL)).document as { '@context': unknown };
  add(activityStreams['@context']);
  return names;
}

/**
 * A `type` that names no class of the bundled contexts (pilot A's `packageQuantity.type:
 * "QuantityType"`) expands under ActivityStreams' `@vocab: "_:"` to a blank node, which jsonld.js
 * lets through without an event: the type would be stored as a meaningless node and read back as
 * one. It is refused like any other undefined term (422), naming the types, as `/validate` already
 * refused a bare payload with it.
 */
export async function refuseUndefinedTypes(json: unknown, quads: readonly Quad[]): Promise<void> {
  if (!quads.some((q) => q.predicate.value === RDF_TYPE && q.object.termType === 'BlankNode')) return;
  const known = await termNames();
  const types = new Set<string>();
  walkEntries(json, (key, value) => {
    if (key === '@context') return false;
    if (key === 'type' || key === '@type')
      for (const t of Array.isArray(value) ? value : [value]) if (typeof t === 'string' && !t.includes(':') && !known.has(t)) types.add(t);
    return true;
  });
  const names = [...types].sort();
  throw new Unprocessable(
    `These types are not defined by the bundled contexts and would be lost: ${names.length > 0 ? names.join(', ') : '(a blank node type)'}`,
    { droppedTerms: names },
  );
}
