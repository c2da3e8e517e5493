import { isObject } from '../util/json.js';
import { termOf } from './sent-forms.js';

/**
 * The read side of src/core/activities/item-order.ts for values that are no nodes: an array of plain values
 * (strings, numbers, booleans, value objects) reads back in the order sent, from the `svc:valueOrder`
 * marker its node holds, and a consignment's root `id` reads back as sent, from `svc:sentId`. Runs on
 * the compacted tree after restoreSentForms, so the keys are the terms the view gives.
 */
type Json = Record<string, unknown>;

const VALUE_ORDER = ['svc:valueOrder', 'https://w3id.org/supply-chain-dataspace/ns#valueOrder'];
const SENT_ID = ['svc:sentId', 'https://w3id.org/supply-chain-dataspace/ns#sentId'];

/** One value by its text and language: what the store keeps of it whatever the JSON form (a number
 * sent under an xsd:string term reads back as its text, a datatype IRI compacted). */
const valueKey = (v: unknown): string =>
  isObject(v)
    ? `${String(v['@value'])}\u0000${typeof v['@language'] === 'string' ? v['@language'].toLowerCase() : ''}`
    : `${String(v)}\u0000`;

const texts = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

/** The array under `key` put in the order `sent`; values the marker does not name keep their place after. */
function reorder(node: Json, key: string, sent: unknown[]): void {
  const field = [key, termOf(key)].find((k) => Array.isArray(node[k]));
  if (field === undefined) return;
  const rank = new Map<string, number>();
  sent.forEach((v, i) => {
    const k = valueKey(v);
    if (!rank.has(k)) rank.set(k, i);
  });
  const values = node[field] as unknown[];
  node[field] = values
    .map((v, i) => ({ v, r: rank.get(valueKey(v)) ?? sent.length + i }))
    .sort((a, b) => a.r - b.r)
    .map((x) => x.v);
}

/** A marker's `["key", [values…]]` text, or undefined for any other text. */
export function parsedMarker(text: unknown): [string, unknown[]] | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) && typeof value[0] === 'string' && Array.isArray(value[1]) ? [value[0], value[1]] : undefined;
  } catch {
    return undefined;
  }
}

/** Rewrites a compacted view in place: plain-value arrays in the order sent, markers removed. */
export function restoreValueOrder(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) restoreValueOrder(item);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) if (key !== '@context') restoreValueOrder(value);
  for (const marker of VALUE_ORDER) {
    if (!(marker in node)) continue;
    for (const text of texts(node[marker])) {
      const order = parsedMarker(text);
      if (order) reorder(node, order[0], order[1]);
    }
    delete node[marker];
  }
}

/** The root's `id` as sent, when one was (pilot E); the marker is removed either way. */
export function takeSentId(root: Json): string | undefined {
  let id: string | undefined;
  for (const marker of SENT_ID) {
    const value = root[marker];
    if (typeof value === 'string') id = value;
    delete root[marker];
  }
  return id;
}
