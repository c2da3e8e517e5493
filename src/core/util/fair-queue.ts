/** Why a job could not be queued: its owner has too many waiting, or everyone together has. */
export type Refused = { refused: 'owner' | 'total'; waiting: number };

/**
 * Waiting jobs, a queue per owner (an organisation), taken round-robin: one owner looping heavy
 * queries gets one turn in every round, so another owner's query waits for at most one job of each
 * other owner, not for the whole backlog. Each owner may have at most `perOwner` jobs waiting.
 */
export class FairQueue<T> {
  private readonly queues = new Map<string, T[]>();
  /** Owners with jobs waiting, in the order of their next turn. */
  private readonly turns: string[] = [];
  private count = 0;

  constructor(
    private readonly perOwner: number,
    private readonly total: number,
  ) {}

  get size(): number {
    return this.count;
  }

  waitingFor(owner: string): number {
    return this.queues.get(owner)?.length ?? 0;
  }

  /** Queues `job` for `owner`, or says why not. */
  push(owner: string, job: T): Refused | undefined {
    const queue = this.queues.get(owner) ?? [];
    if (queue.length >= this.perOwner) return { refused: 'owner', waiting: queue.length };
    if (this.count >= this.total) return { refused: 'total', waiting: this.count };
    if (queue.length === 0) {
      this.queues.set(owner, queue);
      this.turns.push(owner);
    }
    queue.push(job);
    this.count++;
    return undefined;
  }

  /** The next job: the oldest of the owner whose turn it is; that owner goes to the back. */
  shift(): T | undefined {
    const owner = this.turns.shift();
    if (owner === undefined) return undefined;
    const queue = this.queues.get(owner)!;
    const job = queue.shift()!;
    this.count--;
    if (queue.length > 0) this.turns.push(owner);
    else this.queues.delete(owner);
    return job;
  }

  /**
   * The next job of the first owner in turn order that `eligible` accepts; that owner goes to the back,
   * the owners passed over keep their places, so each takes the next turn it is eligible for.
   */
  shiftWhere(eligible: (owner: string) => boolean): { owner: string; job: T } | undefined {
    const at = this.turns.findIndex(eligible);
    if (at < 0) return undefined;
    // `at` was found just above.
    const owner = this.turns.splice(at, 1)[0]!;
    const queue = this.queues.get(owner)!;
    const job = queue.shift()!;
    this.count--;
    if (queue.length > 0) this.turns.push(owner);
    else this.queues.delete(owner);
    return { owner, job };
  }

  /** Takes `job` out of `owner`'s queue (it gave up waiting); false when it was not there. */
  remove(owner: string, job: T): boolean {
    const queue = this.queues.get(owner);
    const at = queue?.indexOf(job) ?? -1;
    if (!queue || at < 0) return false;
    queue.splice(at, 1);
    this.count--;
    if (queue.length === 0) {
      this.queues.delete(owner);
      this.turns.splice(this.turns.indexOf(owner), 1);
    }
    return true;
  }

  /** Every job, removed, in no particular order. */
  drain(): T[] {
    const all = [...this.queues.values()].flat();
    this.queues.clear();
    this.turns.length = 0;
    this.count = 0;
    return all;
  }
}
