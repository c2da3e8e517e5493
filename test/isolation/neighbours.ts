import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { activity, consignment, target, event } from '../helpers/payloads.js';
import { USERS, type TestNode, type UserName } from '../helpers/test-node.js';

/**
 * The noisy-neighbour harness: organisation B ("noisy") does something while organisation A ("quiet")
 * goes on reading and publishing. A case asserts three things: A's requests stay within a latency bound,
 * the node's event loop was never blocked longer than a bound, and A's data reads the same for every
 * reader afterwards. The node under test runs in this process (TestNode), so the event-loop delay
 * sampled here is the node's own.
 */

/** Samples the event loop's delay from start() until stop(): the longest stall, in milliseconds. */
export class LoopWatch {
  private histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });

  start(): this {
    this.histogram.reset();
    this.histogram.enable();
    return this;
  }

  /** Stops sampling and answers the longest delay seen, in ms. */
  stop(): number {
    this.histogram.disable();
    return this.histogram.max / 1e6;
  }
}

export interface QuietSide {
  /** Latency of each of A's requests made while B was busy, in ms. */
  latencies: number[];
  /** Non-2xx answers A got, which a case asserts empty. */
  failures: string[];
}

export interface NeighbourRun<T> {
  noisy: T;
  quiet: QuietSide;
  /** The node's longest event-loop stall while B ran, in ms. */
  maxLoopDelayMs: number;
}

/**
 * A's steady work while B is busy: reads its own consignment's view and, every third step, publishes an
 * event to it, pausing `pauseMs` between steps. Goes on until `noisy` has answered, at least once.
 */
export async function whileNoisy<T>(
  node: TestNode,
  quiet: { user: UserName; consignment: Record<string, any> },
  noisy: () => Promise<T>,
  pauseMs = 50,
): Promise<NeighbourRun<T>> {
  const token = await node.login(quiet.user);
  const watch = new LoopWatch().start();
  const latencies: number[] = [];
  const failures: string[] = [];
  let done = false;
  const noisyRun = noisy().finally(() => {
    done = true;
  });
  const path = `/supply-chain/data-space/consignments/${encodeURIComponent(quiet.consignment.globalId)}`;
  let step = 0;
  do {
    const started = performance.now();
    const res =
      step % 3 === 2
        ? await node.request('POST', '/supply-chain/data-space/inbox', {
            token,
            body: activity('Add', USERS[quiet.user].org, event('svc:despatched'), target(quiet.consignment)),
          })
        : await node.request('GET', path, { token });
    latencies.push(performance.now() - started);
    if (res.status >= 300) failures.push(`${res.status} ${res.text.slice(0, 200)}`);
    step += 1;
    if (!done) await new Promise((ok) => setTimeout(ok, pauseMs));
  } while (!done && step < 2000);
  const noisyAnswer = await noisyRun;
  return { noisy: noisyAnswer, quiet: { latencies, failures }, maxLoopDelayMs: watch.stop() };
}

/** A publishes one consignment of its own; answers the payload it sent. */
export async function publishOwn(node: TestNode, user: UserName, overrides: Record<string, any> = {}): Promise<Record<string, any>> {
  const c = consignment(overrides);
  const res = await node.publish(user, activity('Create', USERS[user].org, c));
  if (res.status !== 201) throw new Error(`${user}'s Create answered ${res.status}: ${res.text.slice(0, 300)}`);
  return c;
}

/**
 * What each reader reads of one consignment: its JSON view and its N-Triples export, by status and body.
 * Taken before and after B's run, the two must be equal for A's data to be unharmed: read a witness
 * consignment of A's, not the one whileNoisy publishes events to.
 */
export async function readsOf(node: TestNode, globalId: string, readers: UserName[]): Promise<Record<string, string>> {
  const path = `/supply-chain/data-space/consignments/${encodeURIComponent(globalId)}`;
  const reads: Record<string, string> = {};
  for (const reader of readers) {
    const token = await node.login(reader);
    const view = await node.request('GET', path, { token });
    const triples = await node.request('GET', path, { token, headers: { accept: 'application/n-triples' } });
    reads[reader] =
      `${view.status} ${stableJson(view.body)}\n${triples.status} ${[...new Set(triples.text.split('\n'))].sort().join('\n')}`;
  }
  return reads;
}

/** JSON with object keys sorted, so two reads compare by content, not by key order. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/**
 * `count` Creates of fresh consignments by `user` over `connections` connections, and nothing else (no
 * read in between): a burst of writes. Answers each status.
 */
export async function createBurst(node: TestNode, user: UserName, count: number, connections = 16): Promise<number[]> {
  const token = await node.login(user);
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) {
        next += 1;
        const res = await node.request('POST', '/supply-chain/data-space/inbox', {
          token,
          body: activity('Create', USERS[user].org, consignment()),
        });
        statuses.push(res.status);
      }
    }),
  );
  return statuses;
}

/** The 99th percentile of a list of latencies, in ms. */
export function p99(latencies: number[]): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
}
