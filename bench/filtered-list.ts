/**
 * Filtered lists (GET …/consignments with updatedSince, status, location, scope), one request at a
 * time (c=1, limit 50): each filter walked from its first page along its `next` links, up to
 * MAX_PAGES pages, with the latency of every page and the node's longest event-loop delay over the
 * walk (from its /metrics histogram of each second's longest delay, whose smallest bucket is 10 ms).
 * Used by run.ts at each read scale; alone, `npm run bench:lists [consignments]` seeds a data dir
 * through the bulk seeder (every 10th consignment with a preNotification event and a document), starts
 * a node on it and prints the table, with the change-feed walk beside it (feed-walk.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../src/core/project-paths.js';
import { walkFeed } from './feed-walk.js';
import { startFileServer } from './file-server.js';
import { percentile } from './load.js';
import { METRICS_TOKEN } from './memory-rows.js';
import { globalIdFor, RUN } from './payloads.js';
import { freePort, NODE_MAIN, runScript, startServer } from './processes.js';
import { renderTable, type Row } from './table.js';
import { BENCH_SEED, BENCH_USERS, login } from './users.js';

const CONSIGNMENTS = '/supply-chain/data-space/consignments';
const MAX_PAGES = 200;

export interface ListWalk {
  pages: number;
  items: number;
  p50: number;
  p99: number;
  max: number;
  /** The longest event-loop delay over the walk, as the histogram bucket that bounds it ("≤ 10 ms"). */
  loop: string;
  /** The node's CPU time per page (every thread), when its process is known: the figure a busy machine moves least. */
  cpuMsPerPage?: number;
}

/** Cumulative counts of the node's dataspace_event_loop_delay_seconds buckets, by upper bound. */
async function loopBuckets(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const buckets = new Map<string, number>();
  for (const [, le, count] of text.matchAll(/^dataspace_event_loop_delay_seconds_bucket\{le="([^"]+)"\} (\S+)$/gm))
    buckets.set(le!, Number(count));
  return buckets;
}

/** The smallest bucket that holds every second observed between two readings. */
function longestBetween(before: Map<string, number>, after: Map<string, number>): string {
  const total = (after.get('+Inf') ?? 0) - (before.get('+Inf') ?? 0);
  if (total === 0) return 'n/a (no second observed)';
  for (const [le, count] of after) {
    if (le !== '+Inf' && count - (before.get(le) ?? 0) === total) return `≤ ${Number(le) * 1000} ms`;
  }
  return `> ${
    [...after.keys()]
      .filter((k) => k !== '+Inf')
      .map(Number)
      .at(-1)! * 1000
  } ms`;
}

/** Walks the list under `filter` from its first page (c=1), up to MAX_PAGES pages. */
export async function walkFiltered(url: string, token: string, filter: string, cpuMs?: () => number, limit = 50): Promise<ListWalk> {
  const latencies: number[] = [];
  let items = 0;
  const before = await loopBuckets(url);
  const cpuBefore = cpuMs?.();
  // The histogram takes one observation a second: a walk shorter than that is waited out, so it has one.
  const started = performance.now();
  let next: string | undefined = `${CONSIGNMENTS}?${filter}&limit=${limit}`;
  while (next && latencies.length < MAX_PAGES) {
    const t = performance.now();
    const res: Response = await fetch(`${url}${next}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as unknown[];
    latencies.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`${filter}: ${res.status} ${JSON.stringify(body)}`);
    items += body.length;
    next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
  }
  const cpuMsPerPage = cpuMs && cpuBefore !== undefined ? (cpuMs() - cpuBefore) / latencies.length : undefined;
  const waited = 1100 - (performance.now() - started);
  if (waited > 0) await new Promise((r) => setTimeout(r, waited));
  const loop = longestBetween(before, await loopBuckets(url));
  const sorted = Float64Array.from(latencies).sort();
  return {
    pages: latencies.length,
    items,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1)!,
    loop,
    cpuMsPerPage,
  };
}

/** The `updated` of consignment `n` of the seed: a time that splits the update order near there. */
async function updatedOf(url: string, token: string, n: number): Promise<string> {
  const res = await fetch(`${url}${CONSIGNMENTS}/${encodeURIComponent(globalIdFor(n, RUN.seed))}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const view = (await res.json()) as { updated?: string };
  if (res.status !== 200 || !view.updated) throw new Error(`consignment ${n}: ${res.status}`);
  return view.updated;
}

/**
 * The rows: filters that keep a tenth, a third, the last tenth by time, a sparse combination, and one
 * that keeps nothing over the whole update order (each page then stops at the examine bound, 20,000).
 */
export async function filteredListRows(
  url: string,
  token: string,
  scale: number,
  reader: string,
  rows: Row[],
  cpuMs?: () => number,
): Promise<void> {
  // Consignments without extras (every 10th has an event and a document, which make its `updated` later).
  const lastTenth = await updatedOf(url, token, Math.floor(scale * 0.9) + 1);
  const lastHalf = await updatedOf(url, token, Math.floor(scale / 2) + 1);
  const filters: [string, string][] = [
    ['status=preNotified (1 in 10)', 'status=preNotified'],
    ['location=NLRTM (1 in 3)', 'location=NLRTM'],
    ['updatedSince, about the last tenth (update order)', `updatedSince=${encodeURIComponent(lastTenth)}`],
    [
      'updatedSince the last half + status=preNotified + location=FRCQF + scope=shared (1 in 60)',
      `updatedSince=${encodeURIComponent(lastHalf)}&status=preNotified&location=FRCQF&scope=shared`,
    ],
    ['updatedSince=2000-01-01 + status=delivered (none: every page stops at 20,000 looked at)', 'updatedSince=2000-01-01&status=delivered'],
  ];
  const stored = scale.toLocaleString('en-GB');
  for (const [name, filter] of filters) {
    const walk = await walkFiltered(url, token, filter, cpuMs);
    rows.push({
      measure: `GET list filtered: ${name}, limit 50, walked from the first page (${reader}; ${walk.pages} pages${walk.pages === MAX_PAGES ? ' (cut)' : ''}, ${walk.items.toLocaleString('en-GB')} items)`,
      stored,
      concurrency: '1',
      value: `slowest page ${walk.max.toFixed(1)} ms; event-loop delay ${walk.loop}`,
      p50: walk.p50,
      p99: walk.p99,
      cpu: walk.cpuMsPerPage,
    });
  }
}

async function main(): Promise<void> {
  const scale = Number(process.argv[2] ?? 2000);
  const work = mkdtempSync(join(tmpdir(), 'dataspace-filtered-list-'));
  const files = await startFileServer();
  try {
    const dataDir = join(work, 'data');
    const seedStarted = performance.now();
    const seed = JSON.parse(
      await runScript(resolve(projectRoot, 'dist', 'bench', 'bulk-seed.js'), [dataDir, BENCH_SEED, '0', String(scale), '10', files.url]),
    ) as { activities: number };
    process.stderr.write(`seeded ${seed.activities} activities in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s\n`);
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
        DATASPACE_METRICS_TOKEN: METRICS_TOKEN,
      },
    });
    try {
      const token = await login(node.url, BENCH_USERS.border);
      const rows: Row[] = [];
      // A first round warms the node (compiled code, caches, work left from its start); the figures are the second's.
      await filteredListRows(node.url, token, scale, 'warm-up', []);
      await filteredListRows(node.url, token, scale, 'border agency under policy', rows, () => node.cpuMs());
      const unfiltered = await walkFiltered(node.url, token, 'scope=all', () => node.cpuMs());
      rows.push({
        measure: `GET list unfiltered, limit 50, walked from the first page, for comparison (${unfiltered.pages} pages)`,
        stored: scale.toLocaleString('en-GB'),
        concurrency: '1',
        value: `slowest page ${unfiltered.max.toFixed(1)} ms; event-loop delay ${unfiltered.loop}`,
        p50: unfiltered.p50,
        p99: unfiltered.p99,
        cpu: unfiltered.cpuMsPerPage,
      });
      const feedCpu = node.cpuMs();
      const feed = await walkFeed(node.url, token);
      rows.push({
        measure: `GET changes, one walk from the start, limit 50 (border agency under policy; ${feed.pages} pages, ${feed.items.toLocaleString('en-GB')} items)`,
        stored: scale.toLocaleString('en-GB'),
        concurrency: '1',
        value: `walk ${(feed.totalMs / 1000).toFixed(1)} s, slowest page ${feed.max.toFixed(1)} ms`,
        p50: feed.p50,
        p99: feed.p99,
        cpu: (node.cpuMs() - feedCpu) / feed.pages,
      });
      process.stdout.write(
        `load average while measured: ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} on ${cpus().length} cores\n`,
      );
      process.stdout.write(`${renderTable(rows)}\n`);
    } finally {
      await node.stop();
    }
  } finally {
    await files.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
