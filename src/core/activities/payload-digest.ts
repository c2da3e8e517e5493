import { createHash } from 'node:crypto';
import { isObject } from '../util/json.js';
import { finish, STEP_UNITS, type Steps } from '../util/slices.js';

/** Text hashed at once: one update per ~64 KB rather than one per token. */
const UPDATE_CHARS = 65_536;

/**
 * A digest of the activity as normalised (nulls dropped, dates in their stored form): keys in
 * code-point order at every level, so key order and JSON spacing do not make two payloads differ.
 * Written here rather than with a canonical-JSON package: a short walk over a body already bounded in
 * depth and size (limits.ts), and no new dependency. The digests are kept with applied activity ids,
 * so the text hashed must never change: the same as `JSON.stringify` of each leaf and key, joined.
 */
export function payloadDigest(json: unknown): string {
  return finish(digestSteps(json));
}

/**
 * payloadDigest() in steps (util/slices.ts): the walk and the hashing of a 150 KB activity took ~25–35
 * ms in one piece on a loaded 2-core machine. An explicit stack, not recursion: what is still to
 * write is either a value (`VALUE`) or a piece of punctuation and key (`TEXT`).
 */
export function* digestSteps(json: unknown): Steps<string> {
  const hash = createHash('sha256');
  let text = '';
  const kinds: number[] = [VALUE];
  const items: unknown[] = [json];
  let units = 0;
  while (kinds.length > 0) {
    const kind = kinds.pop()!;
    const value = items.pop();
    if (kind === TEXT) {
      text += value as string;
      continue;
    }
    if (++units % STEP_UNITS === 0) yield;
    if (Array.isArray(value)) {
      text += '[';
      kinds.push(TEXT);
      items.push(']');
      for (let i = value.length - 1; i >= 0; i--) {
        kinds.push(VALUE);
        items.push(value[i]);
        if (i > 0) {
          kinds.push(TEXT);
          items.push(',');
        }
      }
    } else if (isObject(value)) {
      const keys = Object.keys(value)
        .filter((k) => value[k] !== undefined)
        .sort();
      text += '{';
      kinds.push(TEXT);
      items.push('}');
      for (let i = keys.length - 1; i >= 0; i--) {
        kinds.push(VALUE, TEXT);
        items.push(value[keys[i]!], `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`);
      }
    } else text += JSON.stringify(value) ?? 'null';
    if (text.length >= UPDATE_CHARS) {
      hash.update(text);
      text = '';
    }
  }
  hash.update(text);
  return hash.digest('base64url');
}

const VALUE = 0;
const TEXT = 1;
