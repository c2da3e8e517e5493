import { FairQueue, type Refused } from '../util/fair-queue.js';

/**
 * Payloads waiting for a reader thread, in two lanes: small ones (at most `smallValues` JSON values: an
 * event, an ordinary Create) and the rest. Each lane is a FairQueue (organisations in turn); the bounds
 * count both lanes together. A lane thread takes small payloads only, so a small payload waits for at
 * most one other small one of each organisation, never for a large one being read (seconds on a loaded
 * machine for ~5,000 values); a general thread takes large payloads first and small ones when no large
 * one waits, so neither lane starves and, with no large payloads, every thread reads small ones.
 */
export class ReaderLanes<T> {
  private readonly small = new FairQueue<T>(Infinity, Infinity);
  private readonly large = new FairQueue<T>(Infinity, Infinity);

  constructor(
    private readonly perOwner: number,
    private readonly total: number,
  ) {}

  get size(): number {
    return this.small.size + this.large.size;
  }

  /** Queues `job` for `owner` in its lane, or says why not (the bounds are the two lanes' together). */
  push(owner: string, job: T, small: boolean): Refused | undefined {
    const waiting = this.small.waitingFor(owner) + this.large.waitingFor(owner);
    if (waiting >= this.perOwner) return { refused: 'owner', waiting };
    if (this.size >= this.total) return { refused: 'total', waiting: this.size };
    return (small ? this.small : this.large).push(owner, job);
  }

  /** The next job for a thread: a lane thread's from the small lane only, a general thread's from the large lane first. */
  next(laneThread: boolean): T | undefined {
    return laneThread ? this.small.shift() : (this.large.shift() ?? this.small.shift());
  }

  /** Every job, removed. */
  drain(): T[] {
    return [...this.small.drain(), ...this.large.drain()];
  }
}
