/**
 * The two processes the speed gate (gate.ts) measures: the node as `npm start` runs it (production,
 * fsync on, a fresh data dir) and the ceiling (ceiling-server.ts). Each measure is a fixed number of
 * requests, answered CPU milliseconds per request of the server's process (every thread, cpu-clock.ts).
 */
import { join, resolve } from 'node:path';
import { projectRoot } from '../src/core/project-paths.js';
import { runLoad, type LoadSpec } from './load.js';
import { activity, consignment, globalIdFor, RUN } from './payloads.js';
import { CpuClock } from './cpu-clock.js';
import { freePort, startServer, type ServerProcess } from './processes.js';
import { BENCH_SEED, BENCH_USERS, login } from './users.js';

const INBOX = '/supply-chain/data-space/inbox';
const CONSIGNMENTS = '/supply-chain/data-space/consignments';
/**
 * Creates in flight: at 16 the CPU per Create depends on how many commits share an fsync, which the
 * machine's load decides; at 4 batches are small on both sides and the ratio moves less; at 1 every
 * Create waits for its own fsync and the node's figure spread twice as wide (bench/results/2026-12-08-gate.md).
 */
const CREATE_CONNECTIONS = 4;
/**
 * A round's work: small, so the node's and the ceiling's runs of one round are a second or two apart
 * and see the same load; the gate takes many rounds instead.
 */
const CREATES = Number(process.env.GATE_CREATES ?? 40);
const VIEWS = Number(process.env.GATE_VIEWS ?? 20);
/** Pages of 50 walked a round, from the first page on, round the list again at its end. */
const PAGES = Number(process.env.GATE_PAGES ?? 10);
/** The warm-up's work, whatever a round's: V8 compiles the hot paths over the first few hundred requests. */
const WARM = { creates: 600, views: 150, pages: 80 };
/** Megabytes the ceiling's store memory is grown by before it starts (ceiling-server.ts says why). */
const CEILING_RESERVE_MB = 64;

export interface GateSide {
  /** CPU ms per Create over CREATES Creates at CREATE_CONNECTIONS connections. */
  create(): Promise<number>;
  /** CPU ms per view over VIEWS views of consignments never read before, at 4 connections. */
  views(): Promise<number>;
  /** CPU ms per list page over PAGES pages, one at a time. */
  lists(): Promise<number>;
  warm(): Promise<void>;
  stop(): Promise<void>;
}

/** Waits until the server has answered what a run left in flight, then reads its CPU. */
async function settled(server: ServerProcess, clock: CpuClock): Promise<number> {
  await fetch(`${server.url}/bench-settle`)
    .then((r) => r.arrayBuffer())
    .catch(() => undefined);
  return clock.elapsedMs();
}

/** CPU ms per request of a fixed-size run; any answer but 2xx or a failed task stops the gate. */
async function perRequest(server: ServerProcess, spec: LoadSpec, what: string): Promise<number> {
  const clock = new CpuClock(server.pid);
  const result = await runLoad(spec);
  const ms = await settled(server, clock);
  if (result.non2xx + result.errors + result.taskErrors > 0)
    throw new Error(`${what}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.taskErrors} failed tasks`);
  return ms / result.count;
}

export async function gateNode(work: string, dist: string, say: (text: string) => void): Promise<GateSide> {
  const port = await freePort();
  const server = await startServer({
    name: 'node',
    script: join(dist, 'bundle', 'main.js'),
    port,
    logFile: join(work, 'node.log'),
    readyPath: '/authentication/login',
    nodeArgs: process.env.GATE_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.GATE_CPU_PROF}`] : [],
    env: {
      NODE_ENV: 'production',
      DATASPACE_SEED: BENCH_SEED,
      DATASPACE_DATA_DIR: join(work, 'node'),
      DATASPACE_FSYNC: 'on',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATASPACE_BASE_URL: `http://127.0.0.1:${port}`,
    },
  });
  say(`node started in ${server.startMs.toFixed(0)} ms (${dist})`);
  const writer = await login(server.url, BENCH_USERS.forwarder);
  // The border agency reads under the forwarder's policy (bench/seed.json), as the bench's reads do.
  const reader = { authorization: `Bearer ${await login(server.url, BENCH_USERS.border)}` };
  let created = 0;
  let viewed = 0;
  let page: string | undefined;
  const creates = (amount: number): LoadSpec => ({
    url: server.url,
    connections: CREATE_CONNECTIONS,
    seconds: 0,
    amount,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${writer}` },
    next: () => ({ path: INBOX, body: JSON.stringify(activity('Create', BENCH_USERS.forwarder.org, consignment(created++, RUN.writes))) }),
    checkTaskErrors: true,
  });
  // Views take consignments in the order they were created, so each is one the node never read.
  const views = (amount: number): LoadSpec => ({
    url: server.url,
    connections: 4,
    seconds: 0,
    amount,
    method: 'GET',
    headers: reader,
    next: () => ({ path: `${CONSIGNMENTS}/${encodeURIComponent(globalIdFor(viewed++, RUN.writes))}` }),
  });
  const walk = async (pages: number): Promise<number> => {
    const clock = new CpuClock(server.pid);
    for (let i = 0; i < pages; i++) {
      const res = await fetch(`${server.url}${page ?? `${CONSIGNMENTS}?limit=50`}`, { headers: reader });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`list page: ${res.status}`);
      page = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
    }
    return (await settled(server, clock)) / pages;
  };
  return {
    create: () => perRequest(server, creates(CREATES), 'node Create'),
    async views() {
      if (viewed + VIEWS > created) throw new Error(`views: only ${created - viewed} consignments not read yet`);
      return perRequest(server, views(VIEWS), 'first view');
    },
    lists: () => walk(PAGES),
    async warm() {
      await perRequest(server, creates(WARM.creates), 'node Create warm-up');
      await perRequest(server, views(WARM.views), 'first view warm-up');
      await walk(WARM.pages);
    },
    stop: () => server.stop(),
  };
}

/** The ceiling of this checkout (the yardstick stays the same when GATE_NODE_DIST measures another node). */
export async function gateCeiling(work: string, say: (text: string) => void): Promise<GateSide> {
  const port = await freePort();
  const server = await startServer({
    name: 'ceiling',
    script: resolve(projectRoot, 'dist', 'bench', 'ceiling-server.js'),
    args: [String(port), join(work, 'ceiling'), String(CEILING_RESERVE_MB)],
    port,
    logFile: join(work, 'ceiling.log'),
  });
  say(`ceiling started in ${server.startMs.toFixed(0)} ms`);
  let n = 0;
  const creates = (amount: number): LoadSpec => ({
    url: server.url,
    connections: CREATE_CONNECTIONS,
    seconds: 0,
    amount,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    next: () => ({ path: '/inbox', body: JSON.stringify(activity('Create', BENCH_USERS.forwarder.org, consignment(n++, RUN.ceiling))) }),
  });
  const none = () => Promise.reject(new Error('the ceiling only creates'));
  return {
    create: () => perRequest(server, creates(CREATES), 'ceiling Create'),
    views: none,
    lists: none,
    async warm() {
      await perRequest(server, creates(WARM.creates), 'ceiling Create warm-up');
    },
    stop: () => server.stop(),
  };
}
