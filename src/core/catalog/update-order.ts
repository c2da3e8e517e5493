/** Something kept in order of its last change: the time of that change, then publication order. */
export interface Recency {
  seq: number;
  updatedMs: number;
}

/** A place in update order: just after the entry changed at `ms` with publication number `seq`. */
export interface UpdateKey {
  ms: number;
  seq: number;
}

const atOrBefore = (entry: Recency, key: UpdateKey): boolean =>
  entry.updatedMs < key.ms || (entry.updatedMs === key.ms && entry.seq <= key.seq);

/**
 * Entries in ascending (updatedMs, seq): the consignments changed since a time are a suffix, found by
 * binary search. A write moves its entry to where its new time puts it (nearly always the end), so
 * the order costs what the write touched.
 */
export class UpdateOrder<T extends Recency> {
  private readonly entries: T[] = [];

  /** The position of the first entry after `key`. */
  private after(key: UpdateKey): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (atOrBefore(this.entries[mid]!, key)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Adds an entry at its place (`sorted`), or at the end for a load that sorts once when done. */
  add(entry: T, sorted: boolean): void {
    const last = this.entries.at(-1);
    if (!sorted || !last || atOrBefore(last, { ms: entry.updatedMs, seq: entry.seq - 1 })) this.entries.push(entry);
    else this.entries.splice(this.after({ ms: entry.updatedMs, seq: entry.seq }), 0, entry);
  }

  /** Removes an entry, found by the time it holds now: call before changing it. */
  remove(entry: T): void {
    const at = this.after({ ms: entry.updatedMs, seq: entry.seq }) - 1;
    if (this.entries[at] === entry) this.entries.splice(at, 1);
  }

  /** The entries after `key`, in update order; read it within one turn (a write may move entries between turns). */
  *from(key: UpdateKey): Generator<T> {
    for (let i = this.after(key); i < this.entries.length; i++) yield this.entries[i]!;
  }

  /** How many entries changed after `key`. */
  countFrom(key: UpdateKey): number {
    return this.entries.length - this.after(key);
  }

  sort(): void {
    this.entries.sort((a, b) => a.updatedMs - b.updatedMs || a.seq - b.seq);
  }

  clear(): void {
    this.entries.length = 0;
  }
}

/** A record's `updated` as a number; a time that does not parse sorts first rather than breaking the order. */
export function timeOf(dateTime: string): number {
  const ms = Date.parse(dateTime);
  return Number.isNaN(ms) ? 0 : ms;
}
