import { FairQueue } from './fair-queue.js';

/**
 * An exclusive lock granted in turns by owner (an organisation): while one owner has a backlog of
 * work waiting, another owner's next piece waits for at most one piece of each other owner, not for
 * the whole backlog. A first-in-first-out mutex (async-mutex) made one organisation's Create wait
 * behind every write of a burst another had sent first. Holders are granted in FairQueue order.
 */
export class FairLock {
  private readonly waiting = new FairQueue<() => void>(Infinity, Infinity);
  private held = false;

  /** How many wait for the lock (for tests and metrics). */
  get queued(): number {
    return this.waiting.size;
  }

  async runExclusive<T>(owner: string, work: () => Promise<T>): Promise<T> {
    if (this.held) await new Promise<void>((granted) => { this.waiting.push(owner, granted); });
    else this.held = true;
    try {
      return await work();
    } finally {
      // Handed straight to the next in turn: the lock is never free while anyone waits.
      const next = this.waiting.shift();
      if (next) next();
      else this.held = false;
    }
  }
}
