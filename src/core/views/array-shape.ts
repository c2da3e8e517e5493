import { isObject } from '../util/json.js';

/**
 * Read views give back the JSON shape that was sent (see src/core/activities/item-order.ts): a node stored
 * with svc:position was an item of an array, so it comes back inside an array (also alone), sorted by
 * that position, and the marker itself is left out of the view. The fields spec 2.4 gives as arrays
 * are arrays whatever was stored (data written before positions existed included).
 */
const MARKERS = ['svc:position', 'https://w3id.org/supply-chain-dataspace/ns#position'];
const SPEC_ARRAYS = new Set(['weightUnitNetWeightMeasure', 'includedConsignmentItem', 'includedConsignment']);

function position(node: unknown): number | undefined {
  if (!isObject(node)) return undefined;
  for (const marker of MARKERS) {
    if (!(marker in node)) continue;
    const raw = node[marker];
    const value = Number(isObject(raw) ? raw['@value'] : raw);
    return Number.isFinite(value) ? value : undefined;
  }
  return undefined;
}

function strip(node: unknown): void {
  if (isObject(node)) for (const marker of MARKERS) delete node[marker];
}

/** Rewrites a compacted view in place: arrays restored and ordered, markers removed. */
export function restoreArrays(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) restoreArrays(item);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === '@context') continue;
    restoreArrays(value);
    if (Array.isArray(value)) {
      if (value.some((v) => position(v) !== undefined)) {
        const placed = value.map((v, i) => ({ v, p: position(v) ?? Number.MAX_SAFE_INTEGER, i })).sort((a, b) => a.p - b.p || a.i - b.i);
        node[key] = placed.map((x) => x.v);
      }
      value.forEach(strip);
      for (const v of node[key] as unknown[]) strip(v);
    } else if (position(value) !== undefined || (SPEC_ARRAYS.has(key) && value !== undefined && value !== null)) {
      strip(value);
      node[key] = [value];
    }
  }
}
