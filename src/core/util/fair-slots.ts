import { TooManyRequests } from '../errors.js';
import { FairQueue } from './fair-queue.js';

export interface SlotLimits {
  /** Holders at once, all owners together. */
  slots: number;
  /** Holders at once of one owner (at most `slots`). */
  perOwner?: number;
  /** Waiting holders of one owner; past it a request is refused (429). */
  waitingPerOwner?: number;
  /** What is waited for, for the refusal's message (e.g. "document fetches"). */
  what?: string;
}

/**
 * A few slots granted in turns by owner (an organisation): while one owner has a backlog waiting,
 * another owner's next piece waits for at most one piece of each other owner, not for the whole
 * backlog, and no owner holds more than `perOwner` slots. With one slot it is the ingest's write lock:
 * a first-in-first-out mutex (async-mutex) made one organisation's Create wait behind every write of a
 * burst another had sent first. No kept library takes turns by owner; this builds on FairQueue, which
 * the SPARQL engine and the payload readers use.
 */
export class FairSlots {
  private readonly waiting: FairQueue<() => void>;
  private readonly held = new Map<string, number>();
  private inUse = 0;
  private readonly perOwner: number;

  constructor(private readonly limits: SlotLimits) {
    this.perOwner = Math.min(limits.slots, limits.perOwner ?? limits.slots);
    this.waiting = new FairQueue(limits.waitingPerOwner ?? Infinity, Infinity);
  }

  /** How many wait for a slot (for tests and metrics). */
  get queued(): number {
    return this.waiting.size;
  }

  async run<T>(owner: string, work: () => Promise<T>): Promise<T> {
    if (this.inUse < this.limits.slots && this.heldBy(owner) < this.perOwner) this.take(owner);
    else await this.wait(owner);
    try {
      return await work();
    } finally {
      this.release(owner);
    }
  }

  private wait(owner: string): Promise<void> {
    return new Promise<void>((granted, refuse) => {
      const refused = this.waiting.push(owner, granted);
      if (refused)
        refuse(
          new TooManyRequests(
            `Your organisation has ${refused.waiting} ${this.limits.what ?? 'requests'} waiting already; try again when they are done`,
            1,
          ),
        );
    });
  }

  private heldBy(owner: string): number {
    return this.held.get(owner) ?? 0;
  }

  private take(owner: string): void {
    this.inUse++;
    this.held.set(owner, this.heldBy(owner) + 1);
  }

  private release(owner: string): void {
    this.inUse--;
    const left = this.heldBy(owner) - 1;
    if (left > 0) this.held.set(owner, left);
    else this.held.delete(owner);
    // Handed straight on, in turn, to the next owner under its share: no slot is idle while one is waited for.
    const next = this.waiting.shiftWhere((o) => this.heldBy(o) < this.perOwner);
    if (next) {
      this.take(next.owner);
      next.job();
    }
  }
}
