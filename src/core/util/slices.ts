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

/**
 * Work written as a generator that yields every few units (`STEP_UNITS`): steps of it run until a
 * slice's time has passed, and the caller gives the event loop a turn between slices. Sync callers
 * that want the answer at once use finish().
 */
export type Steps<T> = Generator<void, T, void>;

/** Units of work a generator does between two yields: a yield and a look at the clock are ~0.1 µs. */
export const STEP_UNITS = 64;

/** Runs `steps` for about `sliceMs`: its answer once it is done, undefined while there is more. */
export function sliceOf<T>(steps: Steps<T>, sliceMs = SLICE_MS): { value: T } | undefined {
  const until = performance.now() + sliceMs;
  for (;;) {
    const next = steps.next();
    if (next.done) return { value: next.value };
    if (performance.now() >= until) return undefined;
  }
}

/** Runs `steps` to the end now, in one piece (for work known to be small, or off the event loop). */
export function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Runs `steps` a slice a turn of the event loop. */
export async function inSteps<T>(steps: Steps<T>, sliceMs = SLICE_MS): Promise<T> {
  for (;;) {
    const done = sliceOf(steps, sliceMs);
    if (done) return done.value;
    await nextTurn();
  }
}
