/**
 * A reader catching up: one walk of the change feed (GET …/changes) from its start, page after page
 * (limit 50, one request at a time: c=1), as a reader back from a day offline would. Used by run.ts at
 * each read scale; alone, `node dist/bench/feed-walk.js [consignments]` seeds a data dir through the
 * bulk seeder (every 10th consignment with an event and a document), starts a node on it and prints
 * the walk's figures as one JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../src/core/project-paths.js';
import { startFileServer } from './file-server.js';
import { percentile } from './load.js';
import { freePort, NODE_MAIN, runScript, startServer } from './processes.js';
import { BENCH_SEED, BENCH_USERS, login } from './users.js';

export interface FeedWalk {
  pages: number;
  items: number;
  p50: number;
  p99: number;
  max: number;
  totalMs: number;
  /** Items by kind of change. */
  byChange: Record<string, number>;
}

/** Walks the feed from its start until a page comes back empty and complete; page latencies in ms. */
export async function walkFeed(url: string, token: string, limit = 50): Promise<FeedWalk> {
  const latencies: number[] = [];
  let items = 0;
  const byChange: Record<string, number> = {};
  let next = `${url}/supply-chain/data-space/changes?after=&limit=${limit}`;
  const started = performance.now();
  for (;;) {
    const t = performance.now();
    const res = await fetch(next, { headers: { authorization: `Bearer ${token}` } });
    const page = (await res.json()) as { next: string; orderedItems: { change: string }[]; partial?: boolean };
    latencies.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`changes: ${res.status} ${JSON.stringify(page)}`);
    items += page.orderedItems.length;
    for (const item of page.orderedItems) byChange[item.change] = (byChange[item.change] ?? 0) + 1;
    next = page.next;
    if (page.orderedItems.length === 0 && !page.partial) break;
  }
  const sorted = Float64Array.from(latencies).sort();
  return {
    pages: latencies.length,
    items,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1)!,
    totalMs: performance.now() - started,
    byChange,
  };
}

/** For comparison on the same node: the consignment list walked the same way (limit 50, c=1). */
async function walkList(url: string, token: string): Promise<{ pages: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  let next: string | undefined = '/supply-chain/data-space/consignments?limit=50';
  while (next) {
    const t = performance.now();
    const res: Response = await fetch(`${url}${next}`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    latencies.push(performance.now() - t);
    next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
  }
  const sorted = Float64Array.from(latencies).sort();
  return { pages: latencies.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}

async function main(): Promise<void> {
  const scale = Number(process.argv[2] ?? 1000);
  const work = mkdtempSync(join(tmpdir(), 'dataspace-feed-walk-'));
  const files = await startFileServer();
  try {
    const dataDir = join(work, 'data');
    const seed = JSON.parse(
      await runScript(resolve(projectRoot, 'dist', 'bench', 'bulk-seed.js'), [dataDir, BENCH_SEED, '0', String(scale), '10', files.url]),
    ) as { activities: number };
    const port = await freePort();
    const node = await startServer({
      name: 'node',
      script: NODE_MAIN,
      port,
      logFile: join(work, 'node.log'),
      readyPath: '/authentication/login',
      env: {
        NODE_ENV: 'production',
        DATASPACE_SEED: BENCH_SEED,
        DATASPACE_DATA_DIR: dataDir,
        DATASPACE_FETCH_ALLOW: new URL(files.url).hostname,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATASPACE_BASE_URL: `http://127.0.0.1:${port}`,
      },
    });
    try {
      const token = await login(node.url, BENCH_USERS.border);
      await walkFeed(node.url, token);
      const walk = await walkFeed(node.url, token);
      const list = await walkList(node.url, token);
      process.stdout.write(`${JSON.stringify({ consignments: scale, activities: seed.activities, ...walk, list })}\n`);
    } finally {
      await node.stop();
    }
  } finally {
    await files.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
