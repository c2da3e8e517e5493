import { FairQueue, type Refused } from '../../core/util/fair-queue.js';

/**
 * Queries one organisation may have running at once on `threads` engine threads: at most half of them
 * (rounded up), and 1 with two threads, so with two threads or more another organisation always finds
 * a thread while one organisation's heavy queries run.
 */
export function runningCapPerOwner(threads: number): number {
  return threads <= 2 ? 1 : Math.ceil(threads / 2);
}

/**
 * Which waiting query starts next on a free engine thread: owners (organisations) in round-robin turn
 * (FairQueue), skipping an owner that already has its cap of queries running. Pure bookkeeping: the
 * engine says when a thread is free (`next`) and when a query it started has ended (`finished`).
 */
export class Dispatch<T> {
  private readonly waiting: FairQueue<T>;
  private readonly running = new Map<string, number>();
  readonly runningCap: number;

  constructor(threads: number, maxWaitingPerOwner: number, maxWaiting: number) {
    this.waiting = new FairQueue(maxWaitingPerOwner, maxWaiting);
    this.runningCap = runningCapPerOwner(threads);
  }

  get size(): number {
    return this.waiting.size;
  }

  runningFor(owner: string): number {
    return this.running.get(owner) ?? 0;
  }

  waitingFor(owner: string): number {
    return this.waiting.waitingFor(owner);
  }

  /** Queues `job` for `owner`, or says why not (its owner's waiting cap, or the total). */
  push(owner: string, job: T): Refused | undefined {
    return this.waiting.push(owner, job);
  }

  remove(owner: string, job: T): boolean {
    return this.waiting.remove(owner, job);
  }

  /** The job to start on a free thread, counted as running for its owner from now; none when every owner with jobs waiting is at its cap. */
  next(): { owner: string; job: T } | undefined {
    const taken = this.waiting.shiftWhere((owner) => this.runningFor(owner) < this.runningCap);
    if (taken) this.running.set(taken.owner, this.runningFor(taken.owner) + 1);
    return taken;
  }

  /** A job `next` gave has ended (answered, failed or dropped before it started). */
  finished(owner: string): void {
    const left = this.runningFor(owner) - 1;
    if (left > 0) this.running.set(owner, left);
    else this.running.delete(owner);
  }

  /** Every waiting job, removed. */
  drain(): T[] {
    return this.waiting.drain();
  }
}
