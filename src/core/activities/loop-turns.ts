import { FairSlots } from '../util/fair-slots.js';
import { nextTurn } from '../util/next-turn.js';
import { sliceOf, type Steps } from '../util/slices.js';

/**
 * The main thread's pieces of inbox work, one at a time, organisations in turn. A payload's checks
 * before its reader (shape, forms, digest: ~50 ms for 150 KB on a loaded 2-core machine) are one
 * piece each; without turns, 32 large Creates of one organisation queued 32 such pieces on the event
 * loop at once, and every step of another organisation's request waited behind all of them (A's p99
 * 7.7 s under B's flood). Through here, B has one piece on the loop at a time, and A's next piece
 * waits for at most that one.
 */
export class LoopTurns {
  private readonly slots = new FairSlots({ slots: 1 });

  /** Runs `work` (synchronous) in the owner's turn, then yields a turn of the loop before the next owner's piece. */
  run<T>(owner: string, work: () => T): Promise<T> {
    return this.slots.run(owner, async () => {
      await nextTurn();
      return work();
    });
  }

  /** Runs `steps` a slice of SLICE_MS a turn, each slice in the owner's turn: work whose size the payload decides. */
  async steps<T>(owner: string, steps: Steps<T>): Promise<T> {
    for (;;) {
      const done = await this.run(owner, () => sliceOf(steps));
      if (done) return done.value;
    }
  }
}
