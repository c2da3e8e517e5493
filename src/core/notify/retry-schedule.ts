/** When to try a signal again. Pure: the clock and the dice are arguments, so it is tested with tables. */
export interface RetryPolicy {
  /** Delay ceiling for the first retry; it doubles with every further failure (DATASPACE_NOTIFY_RETRY_MS). */
  baseMs: number;
  /** Largest delay between two attempts, however many failed. */
  maxDelayMs: number;
  /** Time after the signal was queued at which a still-failing delivery is given up and marked failed. */
  giveUpAfterMs: number;
}

/**
 * The wait after the `failures`-th failed attempt (1-based): exponential backoff with "equal jitter",
 * half of the ceiling fixed and half random, so receivers coming back are not hit by every node at
 * once and the wait never collapses to nothing. `random` is in [0, 1).
 */
export function retryDelay(failures: number, policy: RetryPolicy, random: number): number {
  if (!Number.isInteger(failures) || failures < 1) throw new RangeError(`failures must be an integer ≥ 1, got ${failures}`);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** (failures - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * Math.min(Math.max(random, 0), 1));
}

export type NextStep = { retryAt: number } | { giveUp: true };

/**
 * After a failed attempt at `failedAt` (ms since epoch) of a delivery queued at `queuedAt`: the time of
 * the next attempt, or give up. The last retry is pulled in to the deadline, so a receiver that comes
 * back just before it still gets the signal.
 */
export function nextStep(failures: number, queuedAt: number, failedAt: number, policy: RetryPolicy, random: number): NextStep {
  const deadline = queuedAt + policy.giveUpAfterMs;
  if (failedAt >= deadline) return { giveUp: true };
  return { retryAt: Math.min(failedAt + retryDelay(failures, policy, random), deadline) };
}
