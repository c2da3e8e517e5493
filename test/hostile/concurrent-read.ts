import type { TestNode, UserName } from '../helpers/test-node.js';

/** What a hostile request answered, and how long another user's read took while it was in flight. */
export interface UnderAttack<T> {
  hostile: T;
  /** Latency of each read by the bystander, started while the hostile request ran. */
  readMs: number[];
  hostileMs: number;
}

/**
 * Runs `hostile` and, while it is in flight, reads as `bystander` (the consignment list: auth, policy,
 * view) every 100 ms, timing each read: the node keeps serving others only if these stay fast.
 * Reads go on until the hostile request has answered; at least one read is always timed.
 */
export async function whileHostile<T>(
  node: TestNode,
  bystander: UserName,
  hostile: () => Promise<T>,
  path = '/supply-chain/data-space/consignments?limit=1',
): Promise<UnderAttack<T>> {
  const token = await node.login(bystander);
  const readMs: number[] = [];
  let done = false;
  const started = performance.now();
  const attack = hostile().finally(() => {
    done = true;
  });
  const reads = (async () => {
    await new Promise((ok) => setTimeout(ok, 30));
    do {
      const t = performance.now();
      const res = await node.request('GET', path, { token });
      if (res.status !== 200) throw new Error(`the bystander's read answered ${res.status}: ${res.text.slice(0, 200)}`);
      readMs.push(performance.now() - t);
      if (!done) await new Promise((ok) => setTimeout(ok, 100));
    } while (!done && readMs.length < 100);
  })();
  const hostileAnswer = await attack;
  const hostileMs = performance.now() - started;
  await reads;
  return { hostile: hostileAnswer, readMs, hostileMs };
}

/** A generous bound on a bystander's read while one hostile request runs, on a loaded 2-core machine. */
export const READ_BOUND_MS = 1500;
