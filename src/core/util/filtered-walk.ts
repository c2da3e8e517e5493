import { nextTurn } from './next-turn.js';

/** How much one page of a filtered list may take. */
export interface WalkLimits {
  /** Items a page holds. */
  items: number;
  /** Entries looked at, kept or not, before a page is answered as it stands (then it may hold fewer than `items`). */
  examine: number;
  /** Entries looked at between two turns of the event loop. */
  slice: number;
}

export interface WalkPage<T, K> {
  items: T[];
  /** Where the next page starts, when there may be more. */
  next?: K;
}

/**
 * One page of the entries an index source gives in order after a key, keeping those `keep` accepts.
 * The source is opened again from the last key for every slice (a write may move entries in a memory
 * index's arrays between turns, never the order of keys), so no entry is skipped or repeated; it is
 * asked for a slice's worth, which a memory index gives lazily and a table as one batch. A page stops at `items`, or at `examine` entries looked at: a filter that few entries meet
 * costs a bounded amount per request, and a page that stopped early says where to go on.
 */
export async function walkPage<T, K>(
  source: (after: K, count: number) => Iterable<T> | Promise<Iterable<T>>,
  keyOf: (entry: T) => K,
  start: K,
  keep: (entry: T) => boolean,
  limits: WalkLimits,
): Promise<WalkPage<T, K>> {
  const items: T[] = [];
  let after = start;
  let examined = 0;
  for (;;) {
    const batch = source(after, limits.slice);
    const entries = (batch instanceof Promise ? await batch : batch)[Symbol.iterator]();
    for (let n = 0; n < limits.slice; n++) {
      const next = entries.next();
      if (next.done) return { items };
      const entry = next.value;
      after = keyOf(entry);
      examined++;
      if (keep(entry)) {
        if (items.length === limits.items) return { items, next: keyOf(items[items.length - 1]!) };
        items.push(entry);
      }
      if (examined >= limits.examine) return { items, next: after };
    }
    await nextTurn();
  }
}
