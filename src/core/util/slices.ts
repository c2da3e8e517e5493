import { nextTurn } from './next-turn.js';

/** How long one slice of work holds the event loop before it lets what waits run. */
export const SLICE_MS = 5;

/**
 * Calls `each` on every item, yielding to the event loop whenever a slice has run `SLICE_MS`: work
 * whose size the stored data decides, done without holding requests and probes behind it.
 */
export async function inSlices<T>(items: Iterable<T>, each: (item: T) => void, sliceMs = SLICE_MS): Promise<void> {
  let sliceStart = performance.now();
  for (const item of items) {
    each(item);
    // Read after every item (a clock read is cheap): an item may be large (a policy's record), and
    // the slice stays short.
    if (performance.now() - sliceStart >= sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}
