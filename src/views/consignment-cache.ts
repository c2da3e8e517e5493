import type { ChangeClock } from '../policy/change-clock.js';

interface Entry<T> {
  value: T;
  version: number;
  weight: number;
}

/**
 * Values derived from one consignment's data (a read view, its documents), kept while the
 * consignment's version on the ChangeClock stays the same, in a least-recently-used order bounded by
 * weight (bytes, roughly). It holds what a reader may see once allowed to read the consignment; who
 * is allowed is decided before it is asked (Visibility.find), and `variant` names whatever else the
 * value depends on (the reader's organisation, the scope).
 */
export class ConsignmentCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private weight = 0;

  constructor(
    private readonly clock: ChangeClock,
    private readonly weigh: (value: T) => number,
    private readonly maxWeight: number,
  ) {}

  async get(consignment: string, variant: string, make: () => Promise<T>): Promise<T> {
    const key = `${consignment}\n${variant}`;
    // Taken before the store is read: a value made from data older than a write is kept under the older version.
    const version = this.clock.consignment(consignment);
    const hit = this.entries.get(key);
    if (hit) {
      this.drop(key, hit);
      if (hit.version === version) {
        this.entries.set(key, hit);
        this.weight += hit.weight;
        return hit.value;
      }
    }
    const value = await make();
    if (this.clock.consignment(consignment) === version) this.keep(key, { value, version, weight: this.weigh(value) });
    return value;
  }

  private keep(key: string, entry: Entry<T>): void {
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    if (entry.weight > this.maxWeight) return;
    this.entries.set(key, entry);
    this.weight += entry.weight;
    for (const [oldest, value] of this.entries) {
      if (this.weight <= this.maxWeight) break;
      this.drop(oldest, value);
    }
  }

  private drop(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.weight -= entry.weight;
  }
}
