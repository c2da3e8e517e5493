import { svc } from '../rdf/namespaces.js';
import { isObject } from '../util/json.js';

/**
 * RDF keeps no order among the values of a property, and JSON-LD compaction turns a one-item array
 * into an object. So each node object sent as an item of a JSON array is stored with its 0-based
 * place, `svc:position` (xsd:integer): read views give such fields back as arrays in that order, and
 * a SPARQL user sorts with `?item svc:position ?n } ORDER BY ?n`. Literal arrays and named (@id)
 * items carry no position: a literal cannot, and a named node may sit in several arrays.
 */
export const POSITION = svc('position');
const POSITION_KEYS = new Set([POSITION, 'svc:position']);

/** The activity with the position of every array item inside its object written in (a copy). */
export function withPositions(activity: unknown): unknown {
  if (!isObject(activity) || !isObject(activity.object)) return activity;
  return { ...activity, object: walk(activity.object) };
}

function walk(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(walk);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (POSITION_KEYS.has(key)) continue; // the node writes positions; a sent one would contradict them
    if (key.startsWith('@') || !Array.isArray(v)) {
      out[key] = key === '@context' || key === '@value' ? v : walk(v);
      continue;
    }
    out[key] = v.map((item, i) => (isItemNode(item) ? { ...(walk(item) as Record<string, unknown>), [POSITION]: i } : walk(item)));
  }
  return out;
}

function isItemNode(item: unknown): item is Record<string, unknown> {
  return isObject(item) && !('@value' in item) && !('@list' in item) && !('@set' in item) && !('@id' in item) && !('id' in item);
}
