/**
 * The bench's external-store rows: the same node on Virtuoso Open Source on 127.0.0.1
 * (test/helpers/virtuoso.ts, a temporary database; BENCH_VIRTUOSO_BUFFERS pages of 8 KiB,
 * deploy/virtuoso.ini's 340,000 by default). Create on a fresh server; then, per read scale of
 * BENCH_EXTERNAL_SCALES (10k; quick: 1k), consignments seeded through the inbox pipeline on the
 * embedded store (bench/bulk-seed.ts) and loaded into a fresh Virtuoso with its bulk loader
 * (bench/external-bulk-load.ts: seeding through the inbox on Virtuoso runs at ~100/s, so 100k would
 * take ~17 min). BENCH_EXTERNAL_SEED_DIR=<dir> reuses an embedded data dir seeded before (its scale
 * must be the one asked). BENCH_EXTERNAL_SPARQL_URL=<url> with BENCH_EXTERNAL_SEED_DIR reads from a server
 * already loaded with that dir's state (query and update on one URL) instead. Restart, first views,
 * list pages, RSS. Rows say "(external)".
 *
 * 100k does not fit the 15-minute budget of `npm run bench`; run it on its own:
 *   BENCH_ONLY=external BENCH_EXTERNAL_SCALES=100000 npm run bench
 */
import { join } from 'node:path';
import { Virtuoso, virtuosoMissing } from '../test/helpers/virtuoso.js';
import { bulkLoad } from './external-bulk-load.js';
import type { LoadResult, LoadSpec } from './load.js';
import { activity, consignment, globalIdFor, RUN } from './payloads.js';
import type { ServerProcess } from './processes.js';
import { belowTargetScale, checkIfMeaningful, shortRuns, loadRow, perSecond, type Row } from './table.js';
import { BENCH_USERS, readIndexInMs } from './users.js';
import { cycled, pick } from './pick.js';

/** What run.ts lends: its node starter, load runner and table. */
export interface ExternalBench {
  quick: boolean;
  work: string;
  rows: Row[];
  readSeconds: number;
  writeSeconds: number;
  warmupSeconds: number;
  restarts: number;
  extrasEvery: number;
  say(text: string): void;
  startNode(dataDir: string, name: string, env: Record<string, string>): Promise<ServerProcess>;
  stop(server: ServerProcess): Promise<void>;
  login(url: string, user: { email: string; password: string }): Promise<string>;
  measure(label: string, spec: Omit<LoadSpec, 'seconds'>, seconds: number, server?: ServerProcess): Promise<LoadResult>;
  collectCursors(url: string, token: string, max: number): Promise<string[]>;
  /** Seeds consignments from..to-1 into an embedded data dir through the inbox pipeline; activities per second. */
  seedEmbedded(dataDir: string, from: number, to: number): Promise<{ activities: number; perSecond: number }>;
}

const CONCURRENCY = [1, 16] as const;
const INBOX = '/supply-chain/data-space/inbox';
const CONSIGNMENTS = '/supply-chain/data-space/consignments';
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function externalRows(b: ExternalBench): Promise<void> {
  const missing = virtuosoMissing();
  if (missing) {
    b.rows.push({ measure: 'External store (Virtuoso)', stored: '', concurrency: '', value: `n/a (${missing})` });
    return;
  }
  const buffers = Number(process.env.BENCH_VIRTUOSO_BUFFERS ?? 340_000);
  const scales = (process.env.BENCH_EXTERNAL_SCALES ?? (b.quick ? '1000' : '10000')).split(',').map(Number);
  if (process.env.BENCH_EXTERNAL_WRITES !== '0') await creates(b, buffers);
  for (const scale of scales) await reads(b, buffers, scale);
}

async function creates(b: ExternalBench, buffers: number): Promise<void> {
  const virtuoso = await Virtuoso.start({ buffers });
  try {
    const node = await b.startNode(join(b.work, 'ext-writes'), 'node-ext-writes', virtuoso.env());
    const token = await b.login(node.url, BENCH_USERS.forwarder);
    let counter = 0;
    const next = () => ({
      path: INBOX,
      body: JSON.stringify(activity('Create', BENCH_USERS.forwarder.org, consignment(counter++, RUN.writes))),
    });
    for (const connections of CONCURRENCY) {
      const result = await b.measure(
        'external Create',
        {
          url: node.url,
          connections,
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          next,
          checkTaskErrors: true,
        },
        b.writeSeconds,
        node,
      );
      b.rows.push(
        loadRow(
          'Inbox Create (node, external: Virtuoso)',
          'fresh',
          connections,
          result,
          connections === 16 ? checkIfMeaningful('≥ 200 /s', result.perSecond >= 200, shortRuns(b.writeSeconds, b.warmupSeconds)) : '',
        ),
      );
    }
    await b.stop(node);
  } finally {
    await virtuoso?.stop();
  }
}

async function reads(b: ExternalBench, buffers: number, scale: number): Promise<void> {
  const stored = scale.toLocaleString('en-GB');
  let dataDir = process.env.BENCH_EXTERNAL_SEED_DIR;
  if (!dataDir) {
    dataDir = join(b.work, `ext-seed-${scale}`);
    b.say(`external: seeding ${stored} consignments through the inbox pipeline (embedded, in-process)`);
    const seeded = await b.seedEmbedded(dataDir, 0, scale);
    b.rows.push({
      measure: 'Bulk seed through Ingest (in-process, embedded, for the external rows)',
      stored: `0→${stored}`,
      concurrency: '32',
      value: perSecond(seeded.perSecond),
    });
  }
  const url = process.env.BENCH_EXTERNAL_SPARQL_URL;
  // BENCH_VIRTUOSO_GRAPH_INDEX=1: with the optional graph index (deploy/virtuoso-graph-index.sql).
  const virtuoso = url ? undefined : await Virtuoso.start({ buffers, graphIndex: process.env.BENCH_VIRTUOSO_GRAPH_INDEX === '1' });
  const env = virtuoso?.env() ?? { DATASPACE_STORE: 'sparql', DATASPACE_SPARQL_QUERY_URL: url!, DATASPACE_SPARQL_UPDATE_URL: url! };
  try {
    if (virtuoso) {
      const loaded = await bulkLoad(virtuoso, dataDir);
      b.say(
        `external: ${loaded.quads} quads exported in ${Math.round(loaded.exportMs / 1000)} s, rewritten in ${Math.round(loaded.rewriteMs / 1000)} s, loaded into Virtuoso in ${Math.round(loaded.loadMs / 1000)} s`,
      );
      b.rows.push({
        measure: 'Virtuoso bulk load of the seeded state (ld_dir; bench set-up, not the node)',
        stored,
        concurrency: '',
        value: `${Math.round(loaded.quads / (loaded.loadMs / 1000)).toLocaleString('en-GB')} quads/s`,
      });
    }
    const restartMs: number[] = [];
    let node: ServerProcess | undefined;
    for (let i = 0; i < b.restarts; i++) {
      if (node) await b.stop(node);
      node = await b.startNode(dataDir, `node-ext-${scale}-start${i}`, env);
      restartMs.push(node.startMs);
    }
    node = node!;
    const notAtScale = belowTargetScale(scale);
    // Start to first answer: the records the writes need load in the background, so views measured
    // right after a start share the server with that read.
    b.rows.push({
      measure: `Restart on the external store: start to first answer, median of ${restartMs.length}`,
      stored,
      concurrency: '',
      value: `${(median(restartMs) / 1000).toFixed(2)} s`,
      target: checkIfMeaningful('≤ 10 s', median(restartMs) <= 10_000, notAtScale),
    });
    // Reads wait for the read index, which starts loading at start (at 100k on this server it takes
    // longer than a run): the first views are measured once it is in, and its load is a row of its own.
    const indexMs = await readIndexInMs(node.url);
    b.rows.push({
      measure: 'Read index in after a start: from the first answer and a login to the first list page (external)',
      stored,
      concurrency: '',
      value: `${(indexMs / 1000).toFixed(2)} s`,
    });
    const headers = { authorization: `Bearer ${await b.login(node.url, BENCH_USERS.border)}` };
    const viewPath = (n: number) => `${CONSIGNMENTS}/${encodeURIComponent(globalIdFor(n, RUN.seed))}`;
    const full = Array.from({ length: Math.ceil(scale / b.extrasEvery) }, (_, i) => i * b.extrasEvery).filter((n) => n < scale);
    // Views never read before: each request takes the next consignment in a shuffled order, so none
    // is answered from the node's caches (a view is cached once read).
    const order = [...full].sort(() => Math.random() - 0.5);
    let cursor = 0;
    const unread = () => ({ path: viewPath(cycled(order, cursor++)) });
    for (const connections of CONCURRENCY) {
      const view = await b.measure(
        `external GET view (never read before) @${scale}`,
        { url: node.url, connections, method: 'GET', headers, next: unread },
        b.readSeconds,
        node,
      );
      b.rows.push(
        loadRow(
          'GET consignment view, never read before (external: Virtuoso; border agency under policy)',
          stored,
          connections,
          view,
          connections === 1 ? checkIfMeaningful('p99 ≤ 20 ms', view.p99 <= 20, notAtScale) : '',
        ),
      );
      if (cursor > order.length)
        b.say(`external: the view run went round the ${order.length} consignments with events; later reads were cached`);
    }
    // The first list page reads the publication order whole; a server too slow for it within the
    // node's time limit answers 500, which is a row, not the end of the run.
    const cursors = await b.collectCursors(node.url, headers.authorization.slice('Bearer '.length), 400).catch((error: Error) => {
      b.rows.push({ measure: 'GET list page, limit 50 (external: Virtuoso)', stored, concurrency: '', value: `n/a (${error.message})` });
      return undefined;
    });
    for (const connections of cursors ? CONCURRENCY : []) {
      const list = await b.measure(
        `external list @${scale}`,
        {
          url: node.url,
          connections,
          method: 'GET',
          headers,
          next: () => {
            const c = pick(cursors!);
            return { path: `${CONSIGNMENTS}?limit=50${c ? `&cursor=${c}` : ''}` };
          },
        },
        b.readSeconds,
        node,
      );
      b.rows.push(loadRow('GET list page, limit 50 (external: Virtuoso; random cursor)', stored, connections, list));
    }
    b.rows.push({
      measure: 'RSS of the node after the reads (external)',
      stored,
      concurrency: '',
      value: `${Math.round(node.rssMb())} MB`,
    });
    await b.stop(node);
  } finally {
    await virtuoso?.stop();
  }
}
