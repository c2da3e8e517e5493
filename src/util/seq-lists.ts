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
    if (entries[mid].seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function insert<T extends { seq: number }>(entries: T[], entry: T): void {
  if (entries.length === 0 || entries[entries.length - 1].seq < entry.seq) {
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
  const at = lists.map((l) => insertionPoint(l, afterSeq));
  let last = afterSeq;
  for (;;) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      while (at[i] < lists[i].length && lists[i][at[i]].seq <= last) at[i]++;
      if (at[i] < lists[i].length && (best < 0 || lists[i][at[i]].seq < lists[best][at[best]].seq)) best = i;
    }
    if (best < 0) return;
    const entry = lists[best][at[best]++];
    last = entry.seq;
    yield entry;
  }
}
