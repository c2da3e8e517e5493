import { seal, unseal } from '../util/sealed-cursors.js';

/**
 * Where a walk of the feed resumes: the first journal entry at or after (seq, sub), from its `idx`-th
 * item (a data entry has one item; a policy entry one per consignment whose visibility it may change).
 * Made of journal positions only, so a cursor stays valid across restarts.
 */
export interface Cursor {
  seq: number;
  sub: number;
  idx: number;
}

export const START: Cursor = { seq: 0, sub: 0, idx: 0 };

/** Sealed (core/util/sealed-cursors.ts): a journal position in clear counts and times every organisation's writes. */
export function encodeFeedCursor(c: Cursor): string {
  return seal(`c1.${c.seq}.${c.sub}.${c.idx}`);
}

/** The cursor, or undefined when the text is not one the node issued. */
export function decodeFeedCursor(text: string): Cursor | undefined {
  const match = /^c1\.(\d{1,15})\.(\d{1,9})\.(\d{1,10})$/.exec(unseal(text) ?? '');
  if (!match) return undefined;
  return { seq: Number(match[1]), sub: Number(match[2]), idx: Number(match[3]) };
}
