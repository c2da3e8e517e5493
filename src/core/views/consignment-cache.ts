import { LRUCache } from 'lru-cache';
import type { ChangeClock } from '../policy/change-clock.js';

interface Entry<T> {
  value: T;
  version: number;
}

/**
 * Values derived from one consignment's data (a read view, its documents), kept while the
 * consignment's version on the ChangeClock stays the same, in a least-recently-used order bounded by
 * weight (bytes, roughly). It holds what a reader may see once allowed to read the consignment; who
 * is allowed is decided before it is asked (Visibility.find), and `variant` names whatever else the
 * value depends on (the reader's organisation, the scope).
 */
export class ConsignmentCache<T> {
  private readonly entries: LRUCache<string, Entry<T>>;

  constructor(
    private readonly clock: ChangeClock,
    weigh: (value: T) => number,
    maxWeight: number,
  ) {
    // A value heavier than the whole cache is not kept (lru-cache's maxEntrySize defaults to maxSize).
    this.entries = new LRUCache({ maxSize: maxWeight, sizeCalculation: (entry) => Math.max(1, weigh(entry.value)) });
  }

  async get(consignment: string, variant: string, make: () => Promise<T>): Promise<T> {
    const key = `${consignment}\n${variant}`;
    // Taken before the store is read: a value made from data older than a write is kept under the older version.
    const version = this.clock.consignment(consignment);
    const hit = this.entries.get(key);
    if (hit) {
      if (hit.version === version) return hit.value;
      this.entries.delete(key);
    }
    const value = await make();
    if (this.clock.consignment(consignment) === version) this.entries.set(key, { value, version });
    return value;
  }
}
