/**
 * `node dist/bench/restart.js <consignments> [restarts]`: seeds a data dir through the inbox pipeline
 * (bench/bulk-seed.ts, one snapshot and image at 90 %), then starts the node on it again and again with
 * memory images on and off (DATASPACE_STORE_IMAGES), printing start-to-first-answer, start to the read
 * index in (a login and the first list page), the start's CPU time and the RSS once answering, with
 * the load average (the machine is shared).
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
import { freePort, runScript, startServer, NODE_MAIN } from './processes.js';
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
    for (const images of (process.env.RESTART_IMAGES ?? 'on,off').split(',')) {
      for (let i = 0; i < restarts; i++) {
        const port = await freePort();
        const load = loadavg()[0]!;
        const server = await startServer({
          name: `node-${images}-${i}`,
          script: NODE_MAIN,
          port,
          logFile: join(work, `node-${images}-${i}.log`),
          readyPath: '/authentication/login',
          // RESTART_CPU_PROF=<dir>: a V8 CPU profile of each start (summarise with bench/profile-summary.ts).
          nodeArgs: process.env.RESTART_CPU_PROF
            ? ['--cpu-prof', `--cpu-prof-dir=${process.env.RESTART_CPU_PROF}`, `--cpu-prof-name=restart-images-${images}-${i}.cpuprofile`]
            : [],
          env: {
            NODE_ENV: 'production',
            DATASPACE_SEED: BENCH_SEED,
            DATASPACE_DATA_DIR: dataDir,
            DATASPACE_FSYNC: 'on',
            DATASPACE_MAX_QUADS: '0',
            DATASPACE_STORE_IMAGES: images,
            PORT: String(port),
            HOST: '127.0.0.1',
            DATASPACE_BASE_URL: `http://127.0.0.1:${port}`,
          },
        });
        const recovered = readFileSync(join(work, `node-${images}-${i}.log`), 'utf8')
          .split('\n')
          .find((l) => l.includes('"msg":"store recovered"'));
        if (recovered) say(`  ${recovered}`);
        const startCpuMs = server.cpuMs();
        const startRssMb = server.rssMb();
        const indexInMs = server.startMs + (await readIndexInMs(server.url));
        const row = `| images ${images} | ${scale} | ${(server.startMs / 1000).toFixed(2)} s | ${(indexInMs / 1000).toFixed(2)} s | ${(startCpuMs / 1000).toFixed(2)} s | ${Math.round(startRssMb)} MB | ${load.toFixed(1)} |`;
        say(row);
        rows.push(row);
        await server.stop();
      }
    }
    process.stdout.write(
      `| restart | consignments | start → first answer | start → read index in | CPU time of the start | RSS | load avg (1 min) |\n|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`,
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
