import { isObject } from '../util/json.js';
import { termOf } from './sent-forms.js';
import { parsedMarker } from './value-order.js';

/**
 * The read side of src/core/activities/text-scalars.ts: a number or boolean sent under an xsd:string
 * term is stored as its text, and the `svc:sentScalars` marker of its node names the values sent so;
 * the view gives those values back as the JSON numbers and booleans they were. Runs on the compacted
 * tree after restoreSentForms, so the keys are the terms the view gives.
 */
type Json = Record<string, unknown>;

const SENT_SCALARS = ['svc:sentScalars', 'https://w3id.org/supply-chain-dataspace/ns#sentScalars'];

/** The field's text values that name a value sent as a number or boolean, as that value. */
function restore(node: Json, key: string, sent: unknown[]): void {
  const field = [key, termOf(key)].find((k) => k in node);
  if (field === undefined) return;
  const byText = new Map(sent.filter((v) => typeof v === 'number' || typeof v === 'boolean').map((v) => [String(v), v]));
  const scalar = (v: unknown) => (typeof v === 'string' && byText.has(v) ? byText.get(v) : v);
  const value = node[field];
  node[field] = Array.isArray(value) ? value.map(scalar) : scalar(value);
}

/** Rewrites a compacted view in place: values sent as numbers or booleans as sent, markers removed. */
export function restoreScalars(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) restoreScalars(item);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) if (key !== '@context') restoreScalars(value);
  for (const marker of SENT_SCALARS) {
    if (!(marker in node)) continue;
    for (const text of Array.isArray(node[marker]) ? node[marker] : [node[marker]]) {
      const sent = parsedMarker(text);
      if (sent) restore(node, sent[0], sent[1]);
    }
    delete node[marker];
  }
}
