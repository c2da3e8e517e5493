import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot } from '../src/core/project-paths.js';
import { startFileServer } from './file-server.js';
import { percentile } from './load.js';
import { globalIdFor, RUN } from './payloads.js';
import { freePort, runScript, startServer, NODE_MAIN } from './processes.js';
import { BENCH_SEED, BENCH_USERS } from './users.js';

/*
 * Issue 18's cold-read row, alone: `node dist/bench/cold-view.js [consignments=7000] [extrasEvery=10]`
 * seeds a data dir as `npm run bench` does, starts the node on it, and reads every consignment that
 * has an event and a document once, one request at a time, as the border agency its policy covers:
 * each view is one the node never read before. It prints p50/p99/mean latency, the node's CPU per
 * view, and the load average. BENCH_CPU_PROF=<dir> writes the node's CPU profile there;
 * BENCH_NODE_ARGS='<flags>' passes V8/Node flags to the node (GC experiments), BENCH_NODE_LOG=<file>
 * keeps its output there; BENCH_LATENCIES=<file> writes each view's latency (ms, in the order read) there,
 * one a line, for looking into the tail;
 * COLD_VIEW_DATA=<dir> seeds that data dir once and keeps it, so later runs skip the seeding (reads
 * write nothing, so every run on it reads views the node never read before).
 */
const dist = resolve(projectRoot, 'dist');
const consignments = Number(process.argv[2] ?? 7000);
const extrasEvery = Number(process.argv[3] ?? 10);
const CONSIGNMENTS = '/supply-chain/data-space/consignments';

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'cold-view-'));
  const files = await startFileServer();
  const dataDir = process.env.COLD_VIEW_DATA ?? join(work, 'data');
  try {
    if (!existsSync(dataDir))
      await runScript(join(dist, 'bench', 'bulk-seed.js'), [
        dataDir,
        BENCH_SEED,
        '0',
        String(consignments),
        String(extrasEvery),
        files.url,
      ]);
    const port = await freePort();
    const node = await startServer({
      name: 'node',
      script: NODE_MAIN,
      port,
      logFile: process.env.BENCH_NODE_LOG ?? join(work, 'node.log'),
      readyPath: '/authentication/login',
      nodeArgs: [
        ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
        ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      ],
      env: {
        NODE_ENV: 'production',
        DATASPACE_SEED: BENCH_SEED,
        DATASPACE_DATA_DIR: dataDir,
        DATASPACE_FSYNC: 'on',
        DATASPACE_FETCH_ALLOW: new URL(files.url).hostname,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATASPACE_BASE_URL: `http://127.0.0.1:${port}`,
      },
    });
    try {
      const res = await fetch(`${node.url}/authentication/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(BENCH_USERS.border),
      });
      const token = /access_token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
      if (!token) throw new Error(`login: ${res.status}`);
      const headers = { authorization: `Bearer ${token}` };
      const read = async (n: number): Promise<number> => {
        const started = performance.now();
        const answer = await fetch(`${node.url}${CONSIGNMENTS}/${encodeURIComponent(globalIdFor(n, RUN.seed))}`, { headers });
        await answer.arrayBuffer();
        if (answer.status !== 200) throw new Error(`view ${n}: ${answer.status}`);
        return performance.now() - started;
      };
      // Warm-up on views that are not measured (consignments without extras), so the JIT is warm too.
      for (let n = 1; n < Math.min(consignments, 400); n++) if (n % extrasEvery !== 0) await read(n);
      const measured: number[] = [];
      const cpuBefore = node.cpuMs();
      for (let n = 0; n < consignments; n += extrasEvery) measured.push(await read(n));
      const cpuMs = (node.cpuMs() - cpuBefore) / measured.length;
      if (process.env.BENCH_LATENCIES) writeFileSync(process.env.BENCH_LATENCIES, measured.map((ms) => ms.toFixed(3)).join('\n'));
      const sorted = Float64Array.from(measured).sort();
      const mean = measured.reduce((a, b) => a + b, 0) / measured.length;
      console.log(
        JSON.stringify({
          consignments,
          views: measured.length,
          p50: +percentile(sorted, 0.5).toFixed(2),
          p99: +percentile(sorted, 0.99).toFixed(2),
          mean: +mean.toFixed(2),
          serverCpuMsPerView: +cpuMs.toFixed(2),
          loadavg: loadavg().map((l) => +l.toFixed(2)),
        }),
      );
    } finally {
      await node.stop();
    }
  } finally {
    await files.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
