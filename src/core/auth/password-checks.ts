import pLimit from 'p-limit';

/**
 * Every scrypt of the process passes here. libuv has one pool of 4 threads for the whole process, and
 * the change log's writes and fsync run on it too: a spray of logins must never take all four, so at
 * most `concurrency` hashes run at once (2 by default) and the rest wait in order.
 */
export const scryptSlots = pLimit(2);

/** Password checks running or waiting now; login answers 503 rather than queue without end. */
export const scryptBacklog = (): number => scryptSlots.activeCount + scryptSlots.pendingCount;
