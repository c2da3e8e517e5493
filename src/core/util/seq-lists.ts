/**
 * Lists of entries kept in ascending `seq` (publication order): binary search, insertion without
 * repeats, and a merge of several lists that pages "after seq N" without sorting them again.
 */

/** Entries in ascending `seq`; finds where an entry goes by binary search. */
function insertionPoint<T extends { seq: number }>(entries: T[], seq: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid]!.seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function insert<T extends { seq: number }>(entries: T[], entry: T): void {
  const last = entries.at(-1);
  if (last === undefined || last.seq < entry.seq) {
    entries.push(entry);
    return;
  }
  const at = insertionPoint(entries, entry.seq);
  if (entries[at - 1]?.seq !== entry.seq) entries.splice(at, 0, entry);
}

export function remove<T extends { seq: number }>(entries: T[] | undefined, entry: T): void {
  if (!entries) return;
  const at = insertionPoint(entries, entry.seq) - 1;
  if (entries[at] === entry) entries.splice(at, 1);
}

/** The entries of several ascending lists after `afterSeq`, merged in ascending order without repeats. */
export function* merged<T extends { seq: number }>(lists: T[][], afterSeq: number): Generator<T> {
  const cursors = lists.map((list) => ({ list, at: insertionPoint(list, afterSeq) }));
  let last = afterSeq;
  for (;;) {
    let best: { list: T[]; at: number } | undefined;
    let next: T | undefined;
    for (const cursor of cursors) {
      let entry = cursor.list[cursor.at];
      while (entry !== undefined && entry.seq <= last) entry = cursor.list[++cursor.at];
      if (entry !== undefined && (next === undefined || entry.seq < next.seq)) {
        best = cursor;
        next = entry;
      }
    }
    if (best === undefined || next === undefined) return;
    best.at++;
    last = next.seq;
    yield next;
  }
}

/** The list under `key`, made empty and kept in the map when there is none yet. */
export function listOf<K, V>(map: Map<K, V[]>, key: K): V[] {
  let values = map.get(key);
  if (!values) map.set(key, (values = []));
  return values;
}
