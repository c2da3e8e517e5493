/**
 * `node dist/bench/engine-images.js <data dir>`: how long the SPARQL endpoint's engine threads take to
 * start from the N-Quads snapshot and from an engine image (docs/engine-images.md), on a copy of a
 * seeded data dir (it is written to: a log rotation and the images).
 *
 * 1. A node made in this process on the dir (no engine image there yet, or one ignored: it is removed):
 *    the border officer logs in and asks a query; the threads read the snapshot, and so ask for a log
 *    rotation (an image alone of the node's store), at which one engine thread saves its copy. The
 *    node stops.
 * 2. The real node (dist/src/main.js) on the same dir: the same query; the threads restore the image.
 * Printed: the threads' ready lines (ms, from), first answer, RSS (VmRSS) and the load average.
 */
import { createServer } from 'node:http';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { readConfig } from '../src/config.js';
import type { Logger } from '../src/core/logger.js';
import { createLogger } from '../src/core/logger.js';
import { createNode } from '../src/node.js';
import { engineImageFileName, engineImageGenerations } from '../src/adapters/oxigraph/recovery/engine-image.js';
import { freePort, startServer, NODE_MAIN } from './processes.js';
import { BENCH_SEED, BENCH_USERS } from './users.js';

const dir = resolve(process.argv[2] ?? '');
if (!process.argv[2]) throw new Error('usage: node dist/bench/engine-images.js <data dir (a copy: it is written to)>');
const SPARQL = '/supply-chain/data-space/sparql';
const QUERY = 'SELECT (COUNT(?g) AS ?n) WHERE { GRAPH ?g { } }';
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const say = (text: string) => process.stdout.write(`[engine-images] ${text}\n`);
const rssMb = (pid: number | 'self' = 'self') =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
/** VmRSS of a process (the node's store and every engine copy are in it: threads, not processes). */
const memory = (pid: number = process.pid): string => `VmRSS ${rssMb(pid)} MB`;

async function firstAnswer(url: string): Promise<{ ms: number; count: string }> {
  const started = performance.now();
  const login = await fetch(`${url}/authentication/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: BENCH_USERS.border.email, password: BENCH_USERS.border.password }),
  });
  const token = /access_token=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
  if (!token) throw new Error(`login: ${login.status}`);
  const res = await fetch(`${url}${SPARQL}`, {
    method: 'POST',
    body: QUERY,
    headers: { authorization: `Bearer ${token}`, accept: 'application/sparql-results+json', 'content-type': 'application/sparql-query' },
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`query: ${res.status} ${body}`);
  return {
    ms: Math.round(performance.now() - started),
    count: (JSON.parse(body) as { results: { bindings: [{ n: { value: string } }] } }).results.bindings[0].n.value,
  };
}

const env = (port: number) => ({
  NODE_ENV: 'production',
  DATASPACE_SEED: BENCH_SEED,
  DATASPACE_DATA_DIR: dir,
  DATASPACE_FSYNC: 'on',
  PORT: String(port),
  HOST: '127.0.0.1',
  DATASPACE_BASE_URL: `http://127.0.0.1:${port}`,
  DATASPACE_LOG: 'info',
});

async function fromSnapshot(): Promise<string> {
  for (const g of engineImageGenerations(dir)) rmSync(join(dir, engineImageFileName(g)));
  const lines: ({ message: string } & Record<string, unknown>)[] = [];
  const printed = createLogger('info');
  const keep =
    (level: 'info' | 'warn' | 'error'): Logger['info'] =>
    (message, fields) => {
      lines.push({ message, ...fields });
      if (message.startsWith('SPARQL engine') || level !== 'info') printed[level](message, fields);
    };
  const logger: Logger = { info: keep('info'), warn: keep('warn'), error: keep('error') };
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', () => ok()));
  const started = performance.now();
  const node = await createNode(readConfig({ ...process.env, ...env(port) }), logger);
  server.on('request', node.app);
  say(`1. in-process node up in ${Math.round(performance.now() - started)} ms (load ${load()}), ${memory()}`);
  const answer = await firstAnswer(`http://127.0.0.1:${port}`);
  say(`1. first SPARQL answer ${answer.ms} ms (count ${answer.count}); ${memory()}; load ${load()}`);
  const ready = () => lines.filter((l) => l.message === 'SPARQL engine thread ready').length;
  while (ready() < 2) await new Promise((ok) => setTimeout(ok, 500));
  say(`1. threads: ${JSON.stringify(lines.filter((l) => l.message === 'SPARQL engine thread ready'))}; ${memory()}; load ${load()}`);
  let peak = rssMb();
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb());
  }, 200);
  // The threads read the snapshot, so they asked for a rotation (an image alone of the node's store),
  // at which one of them saves its copy.
  const imaged = () =>
    lines.find((l) => l.message === 'SPARQL engine image written' || l.message.startsWith('SPARQL engine image not written'));
  while (!imaged()) await new Promise((ok) => setTimeout(ok, 500));
  await node.capabilities.snapshots!.idle();
  say(`1. image alone asked for by the threads: ${JSON.stringify(node.capabilities.snapshots!.checkpoints.at(-1))}`);
  clearInterval(sampler);
  say(
    `1. ${JSON.stringify(imaged())}; RSS peak while imaging ${peak} MB (the node's own image alone copies its store first), now ${memory()}; load ${load()}`,
  );
  server.closeAllConnections();
  await new Promise<void>((ok) => server.close(() => ok()));
  await node.close();
  return answer.count;
}

async function fromImage(expected: string): Promise<void> {
  const port = await freePort();
  const logFile = join(dir, '..', 'engine-images-node.log');
  rmSync(logFile, { force: true });
  const node = await startServer({ name: 'node', script: NODE_MAIN, port, logFile, readyPath: '/authentication/login', env: env(port) });
  try {
    say(`2. node answering ${Math.round(node.startMs)} ms after spawn; ${memory(node.pid)}; load ${load()}`);
    const answer = await firstAnswer(node.url);
    say(
      `2. first SPARQL answer ${answer.ms} ms (count ${answer.count}, ${answer.count === expected ? 'same as' : 'DIFFERENT FROM'} run 1); ${memory(node.pid)}; CPU ${node.cpuMs()} ms; load ${load()}`,
    );
    const readyLines = () =>
      readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes('SPARQL engine thread ready')).length;
    while (readyLines() < 2) await new Promise((ok) => setTimeout(ok, 200));
    say(`2. both threads ready: ${memory(node.pid)}; load ${load()}`);
    for (const line of readFileSync(logFile, 'utf8').split('\n'))
      if (line.includes('SPARQL engine') || line.includes('memory image')) say(`2. ${line}`);
  } finally {
    await node.stop();
  }
}

const count = await fromSnapshot();
await fromImage(count);
