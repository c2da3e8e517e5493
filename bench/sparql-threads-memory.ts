/**
 * `node dist/bench/sparql-threads-memory.js [scales] [threads]`, e.g. `1000,10000 1,2`: what each
 * SPARQL engine thread costs in memory. Seeds a data dir per scale through the inbox pipeline
 * (bench/bulk-seed.ts), then for each thread count starts the node on it, reads its RSS before any
 * SPARQL query (the threads start with the first one), sends a query and waits until every thread has
 * read its copy of the data (its "SPARQL engine thread ready" log line), and reads the RSS again.
 * Prints one row per scale and thread count, with the load average (the machine is shared).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot } from '../src/core/project-paths.js';
import { startFileServer } from './file-server.js';
import { freePort, runScript, startServer, NODE_MAIN } from './processes.js';
import { startEngineThreads } from './engine-threads.js';
import { BENCH_SEED } from './users.js';

const scales = (process.argv[2] ?? '1000,10000').split(',').map(Number);
const threadCounts = (process.argv[3] ?? '1,2').split(',').map(Number);
const dist = resolve(projectRoot, 'dist');
const say = (text: string) => process.stderr.write(`[sparql-threads-memory] ${text}\n`);
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'dataspace-threads-'));
  const files = await startFileServer();
  const rows: string[] = [
    '| consignments | threads | RSS before the first query MB | RSS with every thread ready MB | per thread MB | load |',
    '|---|---|---|---|---|---|',
  ];
  try {
    for (const scale of scales) {
      const dataDir = join(work, `data-${scale}`);
      say(`seeding ${scale} consignments`);
      say(await runScript(join(dist, 'bench', 'bulk-seed.js'), [dataDir, BENCH_SEED, '0', String(scale), '10', files.url]));
      for (const threads of threadCounts) {
        const port = await freePort();
        const logFile = join(work, `node-${scale}-${threads}.log`);
        const server = await startServer({
          name: `node-${scale}-${threads}`,
          script: NODE_MAIN,
          port,
          logFile,
          readyPath: '/authentication/login',
          env: {
            NODE_ENV: 'production',
            DATASPACE_SEED: BENCH_SEED,
            DATASPACE_DATA_DIR: dataDir,
            DATASPACE_FSYNC: 'on',
            DATASPACE_MAX_QUADS: '0',
            DATASPACE_SPARQL_THREADS: String(threads),
            DATASPACE_LOG: 'info',
            PORT: String(port),
            HOST: '127.0.0.1',
            DATASPACE_BASE_URL: `http://127.0.0.1:${port}`,
          },
        });
        try {
          await sleep(3000);
          const before = server.rssMb();
          say(`${scale} consignments, ${threads} thread(s): ${await startEngineThreads(server.url, logFile, threads)}`);
          await sleep(3000);
          const after = server.rssMb();
          rows.push(
            `| ${scale} | ${threads} | ${before.toFixed(0)} | ${after.toFixed(0)} | ${((after - before) / threads).toFixed(0)} | ${loadavg()[0]!.toFixed(1)} |`,
          );
          say(rows.at(-1)!);
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    await files.close();
    rmSync(work, { recursive: true, force: true });
  }
  console.log(rows.join('\n'));
}

await main();
