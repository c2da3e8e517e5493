import { svc } from '../rdf/namespaces.js';
import { isObject } from '../util/json.js';
import { asText } from './text-scalars.js';

/**
 * RDF keeps no order among the values of a property, and JSON-LD compaction turns a one-item array
 * into an object. So each node object sent as an item of a JSON array is stored with its 0-based
 * place, `svc:position` (xsd:integer): read views give such fields back as arrays in that order, and
 * a SPARQL user sorts with `?item svc:position ?n } ORDER BY ?n`. A literal cannot carry a position,
 * so the node holding an array of plain values (strings, numbers, booleans, value objects) keeps
 * the array as sent in one `svc:valueOrder` string, `["key", [values…]]` in JSON, per array of two or
 * more: the view puts the values back in that order (src/core/views/value-order.ts). Named (@id) items
 * carry neither: a named node may sit in several arrays.
 */
export const POSITION = svc('position');
export const VALUE_ORDER = svc('valueOrder');

/**
 * The consignment's node is stored under its globalId (src/core/rdf/graph-writer.ts), so a root `id` sent
 * beside it (pilot E's `urn:ucr:…`) is kept as the text sent, `svc:sentId`, for the view to give back.
 */
export const SENT_ID = svc('sentId');
/** Numbers and booleans sent under an xsd:string term, stored as their text (text-scalars.ts). */
export const SENT_SCALARS = svc('sentScalars');
const MARKER_KEYS = new Set([
  POSITION,
  'svc:position',
  VALUE_ORDER,
  'svc:valueOrder',
  SENT_ID,
  'svc:sentId',
  SENT_SCALARS,
  'svc:sentScalars',
]);

/** The activity with the position of every array item inside its object written in (a copy), a
 * consignment's root id as sent, and numbers and booleans under text terms as text with their marker. */
export function withPositions(activity: unknown): unknown {
  if (!isObject(activity) || !isObject(activity.object)) return activity;
  const object = walk(activity.object) as Record<string, unknown>;
  const id = activity.object.id ?? activity.object['@id'];
  if ((activity.type === 'Create' || activity.type === 'Update') && typeof id === 'string') object[SENT_ID] = { '@value': id };
  return { ...activity, object };
}

function walk(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(walk);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  const orders: string[] = [];
  const scalars: string[] = [];
  for (const [key, sent] of Object.entries(value)) {
    if (MARKER_KEYS.has(key)) continue; // the node writes the markers; a sent one would contradict them
    const text = key.startsWith('@') ? undefined : asText(key, sent);
    if (text) scalars.push(text.marker);
    const v = text ? text.value : sent;
    if (key.startsWith('@') || !Array.isArray(v)) {
      out[key] = key === '@context' || key === '@value' ? v : walk(v);
      continue;
    }
    if (v.length > 1 && v.every(isPlainValue)) orders.push(JSON.stringify([key, v]));
    out[key] = v.map((item, i) => (isItemNode(item) ? { ...(walk(item) as Record<string, unknown>), [POSITION]: i } : walk(item)));
  }
  if (orders.length > 0) out[VALUE_ORDER] = orders;
  if (scalars.length > 0) out[SENT_SCALARS] = scalars;
  return out;
}

function isItemNode(item: unknown): item is Record<string, unknown> {
  return isObject(item) && !('@value' in item) && !('@list' in item) && !('@set' in item) && !('@id' in item) && !('id' in item);
}

/** A value stored as a literal (or an IRI given as a string): no node of its own. */
function isPlainValue(item: unknown): boolean {
  return ['string', 'number', 'boolean'].includes(typeof item) || (isObject(item) && '@value' in item);
}
