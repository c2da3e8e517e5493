/**
 * `npm run bench:restart -- <consignments> [restarts]` (`node dist/bench/restart.js`): seeds a data dir
 * through the inbox pipeline (bench/bulk-seed.ts, one snapshot and image at 90 %), then starts the node
 * on it again and again, each start ended by kill -9 (SIGKILL: the data dir the next start meets is
 * what a crash leaves), with memory images on and off (DATASPACE_STORE_IMAGES). Per start: start → first
 * answer, start → the read index in (a login and the first list page), the start's CPU time (main
 * thread and the other threads: V8's, libuv's file reads, the reader threads), the RSS at the first
 * answer, and once settled (RESTART_SETTLE_MS after the read index is in) the RSS split into the
 * Oxigraph memories' resident pages, the JS heap and the rest, with the load average (the machine is
 * shared).
 *
 * RESTART_BASE=<another build's dist>: each start of this build follows one of that build on the same
 * dir, alternating, so both meet the same load. RESTART_STOP=term stops each start gracefully instead.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLogger } from '../src/core/logger.js';
import { projectRoot } from '../src/core/project-paths.js';
import { QueryBank } from '../src/core/queries/query-bank.js';
import { openEmbeddedStore } from '../src/adapters/oxigraph/recovery/recovery.js';
import { Snapshotter } from '../src/adapters/oxigraph/recovery/snapshot.js';
import { startFileServer } from './file-server.js';
import { freePort, rssOf, runScript, startServer, NODE_MAIN } from './processes.js';
import { residentBySize } from './memory-map.js';
import { METRICS_TOKEN } from './memory-rows.js';
import { BENCH_SEED, readIndexInMs } from './users.js';

const scale = Number(process.argv[2] ?? 10_000);
const restarts = Number(process.argv[3] ?? 3);
const dist = resolve(projectRoot, 'dist');
const say = (text: string) => process.stderr.write(`[restart] ${text}\n`);

/**
 * RESTART_CHECKPOINT=1: first opens the data dir and takes an image alone (Snapshotter.takeImage), as
 * a running node does once its log passes its share of the image, so the starts measure a node that
 * replays no log after its image.
 */
async function checkpoint(dir: string): Promise<unknown> {
  const logger = createLogger('silent');
  const { store } = openEmbeddedStore(dir, true, logger, { images: true });
  const taken = await new Snapshotter(store, new QueryBank(), {
    dir,
    fsync: true,
    logBytesThreshold: Number.MAX_SAFE_INTEGER,
    logger,
    images: true,
  }).takeImage();
  await store.close();
  return taken;
}

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

interface Build {
  name: string;
  /** Short, for file names. */
  tag: string;
  main: string;
}

/** The builds started in turn: this one, after another one when RESTART_BASE names its dist. */
function builds(): Build[] {
  const base = process.env.RESTART_BASE;
  const own = { name: 'this build', tag: 'own', main: NODE_MAIN };
  return base ? [{ name: `base (${base})`, tag: 'base', main: resolve(base, 'bundle', 'main.js') }, own] : [own];
}

/** RSS once settled: the Oxigraph memories' resident pages (by their sizes on /metrics), the JS heap, the rest. */
async function settledSplit(url: string, pid: number): Promise<{ rss: number; oxigraph: number; heap: number }> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const mappings = residentBySize(pid);
  let oxigraph = 0;
  for (const [, bytes = ''] of text.matchAll(/^dataspace_store_memory_bytes\{instance="[^"]+"\} (\d+)$/gm))
    oxigraph += mappings.get(Number(bytes)) ?? NaN;
  const heap = Number(/^nodejs_heap_size_total_bytes (\d+)$/m.exec(text)?.[1] ?? NaN) / MB;
  return { rss: rssOf(pid), oxigraph, heap };
}

/** One start of `build` on `dataDir`: its row of the table. */
async function oneStart(build: Build, images: string, dataDir: string, work: string, i: number): Promise<string> {
  const port = await freePort();
  const load = loadavg()[0]!;
  const logFile = join(work, `node-${build.tag}-${images}-${i}.log`);
  const server = await startServer({
    name: `node-${build.tag}-${images}-${i}`,
    script: build.main,
    port,
    logFile,
    readyPath: '/authentication/login',
    // RESTART_CPU_PROF=<dir>: a V8 CPU profile of each start (summarise with bench/profile-summary.ts).
    nodeArgs: process.env.RESTART_CPU_PROF
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${process.env.RESTART_CPU_PROF}`,
          `--cpu-prof-name=restart-${build.tag}-images-${images}-${i}.cpuprofile`,
        ]
      : [],
    env: {
      NODE_ENV: 'production',
      DATASPACE_SEED: BENCH_SEED,
      DATASPACE_DATA_DIR: dataDir,
      DATASPACE_FSYNC: 'on',
      DATASPACE_MAX_QUADS: '0',
      DATASPACE_STORE_IMAGES: images,
      DATASPACE_METRICS_TOKEN: METRICS_TOKEN,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATASPACE_BASE_URL: `http://127.0.0.1:${port}`,
    },
  });
  try {
    const startCpuMs = server.cpuMs();
    const mainCpuMs = server.mainThreadCpuMs();
    const startRssMb = server.rssMb();
    const recovered = readFileSync(logFile, 'utf8')
      .split('\n')
      .find((l) => l.includes('"msg":"store recovered"'));
    if (recovered) say(`  ${recovered}`);
    const indexInMs = server.startMs + (await readIndexInMs(server.url));
    await sleep(Number(process.env.RESTART_SETTLE_MS ?? 5000));
    const settled = await settledSplit(server.url, server.pid);
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const row = `| ${build.name} | images ${images} | ${scale} | ${s(server.startMs)} | ${s(indexInMs)} | ${s(startCpuMs)} (${s(mainCpuMs)} + ${s(startCpuMs - mainCpuMs)}) | ${Math.round(startRssMb)} MB | ${Math.round(settled.rss)} MB: ${Math.round(settled.oxigraph)} + ${Math.round(settled.heap)} + ${Math.round(settled.rss - settled.oxigraph - settled.heap)} | ${load.toFixed(1)} |`;
    say(row);
    return row;
  } finally {
    await (process.env.RESTART_STOP === 'term' ? server.stop() : server.kill());
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'dataspace-restart-'));
  // RESTART_DATA_DIR=<dir>: seed there once and reuse it on later runs (seeding 10k takes minutes on a
  // shared machine). The node's starts do not change it: nothing is written before the first answer
  // but a new log's header, and the runs stop the node gracefully.
  const kept = process.env.RESTART_DATA_DIR;
  const dataDir = kept ?? join(work, 'data');
  const files = await startFileServer();
  try {
    if (kept === undefined || !existsSync(kept) || readdirSync(kept).length === 0) {
      say(`seeding ${scale} consignments`);
      say(await runScript(join(dist, 'bench', 'bulk-seed.js'), [dataDir, BENCH_SEED, '0', String(scale), '10', files.url]));
    } else say(`reusing ${kept}`);
    if (process.env.RESTART_CHECKPOINT === '1') say(`image alone: ${JSON.stringify(await checkpoint(dataDir))}`);
    for (const f of readdirSync(dataDir)) say(`  ${f} ${(statSync(join(dataDir, f)).size / 1e6).toFixed(1)} MB`);
    const rows: string[] = [];
    // RESTART_IMAGES=on|off: only that mode (default both).
    for (const images of (process.env.RESTART_IMAGES ?? 'on,off').split(','))
      for (let i = 0; i < restarts; i++) for (const build of builds()) rows.push(await oneStart(build, images, dataDir, work, i));
    process.stdout.write(
      `| build | restart | consignments | start → first answer | start → read index in | CPU of the start (main thread + other threads) | RSS at first answer | RSS settled: Oxigraph memories + JS heap + rest | load avg (1 min) |\n|---|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`,
    );
  } finally {
    await files.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
