/**
 * A replica's memory and start at scale (docs/replicas.md): for each scale, a fresh Virtuoso bulk-loaded
 * with that many consignments (bench/scaled-store.ts) and a fresh PostgreSQL database, then a replica
 * started on them as `npm start` runs it. Measured: the first start (the writer fills the catalog and
 * the change feed's index from the store), RSS after it, after a fixed workload (list pages, feed pages,
 * views, Creates) and after a restart on the filled tables.
 *
 *   npm run bench:replica-scale                 (BENCH_SCALES=100000,1000000 by default)
 */
import { mkdirSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { NodeProcess } from '../test/helpers/node-process.js';
import { Postgres } from '../test/helpers/postgres.js';
import { scratchDir } from '../test/helpers/scratch-dirs.js';
import { Virtuoso } from '../test/helpers/virtuoso.js';
import { skolemisedParts } from './external-bulk-load.js';
import { runLoad } from './load.js';
import { cpuOf, rssOf } from './processes.js';
import { activity, consignment, globalIdFor } from './payloads.js';
import { makeTemplate, writeScaled } from './scaled-store.js';
import { renderTable, type Row } from './table.js';
import { BENCH_SEED, BENCH_USERS, login } from './users.js';

const SCALES = (process.env.BENCH_SCALES ?? '100000,1000000').split(',').map(Number);
const BASE = '/supply-chain/data-space';
const mb = (pid: number) => `${rssOf(pid).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Follows rel="next" for `pages` pages of `path`; the time per page. */
async function pages(url: string, token: string, path: string, count: number, next: (res: Response, body: unknown) => string | undefined) {
  const started = performance.now();
  let at: string | undefined = path;
  let n = 0;
  for (; n < count && at; n++) {
    const res = await fetch(new URL(at, url), { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`${at}: ${res.status} ${await res.text()}`);
    at = next(res, await res.json());
  }
  return { pages: n, msPerPage: (performance.now() - started) / Math.max(1, n) };
}

/** Asks for a list page until it is answered: a 503 (the tables still being filled) is asked again a second later. */
async function firstList(url: string, token: string): Promise<void> {
  for (;;) {
    const res = await fetch(`${url}${BASE}/consignments?limit=1`, { headers: { authorization: `Bearer ${token}` } });
    await res.body?.cancel();
    if (res.status === 200) return;
    if (res.status !== 503) throw new Error(`a first list page: ${res.status}`);
    await new Promise((ok) => setTimeout(ok, 1000));
  }
}

async function scale(count: number, rows: Row[], dir: string): Promise<void> {
  const row = (measure: string, value: string) => rows.push({ measure, stored: count.toLocaleString('en-GB'), concurrency: '', value });
  const [postgres, virtuoso] = await Promise.all([
    Postgres.start(),
    Virtuoso.start({ buffers: Number(process.env.BENCH_VIRTUOSO_BUFFERS ?? 400_000) }),
  ]);
  try {
    const t0 = performance.now();
    const template = await makeTemplate(join(dir, `template-${count}`));
    const file = join(virtuoso.dir, 'scaled.nq');
    await writeScaled(template, count, file);
    const { quads } = await skolemisedParts(file, join(virtuoso.dir, 'load'));
    const t1 = performance.now();
    await virtuoso.isql("ld_dir ('load', '*.nq', 'urn:dataspace:graph:none');");
    await Promise.all([0, 1].map(() => virtuoso.isql('rdf_loader_run ();')));
    await virtuoso.isql('checkpoint;');
    row(
      'Store bulk-loaded: quads; written / loaded',
      `${quads.toLocaleString('en-GB')}; ${seconds(t1 - t0)} / ${seconds(performance.now() - t1)}`,
    );

    const databaseUrl = await postgres.database('dataspace');
    const start = () =>
      NodeProcess.start({
        ...virtuoso.env(),
        DATABASE_URL: databaseUrl,
        DATASPACE_DATA_DIR: join(scratchDir('dataspace-bench-scale-'), 'data'),
        DATASPACE_SEED: BENCH_SEED,
        DATASPACE_LOG: 'warn',
        // BENCH_NODE_OPTIONS=--cpu-prof profiles the replica (written when it stops).
        ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
      });
    const started = performance.now();
    let replica = await start();
    await replica.until(200, 3_600_000);
    // Ready means reads are answered; the catalog and the change index are filled when a first list answers.
    const border = await login(replica.url, BENCH_USERS.border);
    await firstList(replica.url, border);
    row('First start on the store: to a list answered (fills the tables)', seconds(performance.now() - started));
    row('RSS after the first start', mb(replica.pid));

    const nextLink = (res: Response) => /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
    const list = await pages(replica.url, border, `${BASE}/consignments?limit=50`, 200, nextLink);
    row(`List, ${list.pages} pages of 50 (border agency)`, `${list.msPerPage.toFixed(1)} ms a page`);
    const collection = (await (
      await fetch(`${replica.url}${BASE}/changes`, { headers: { authorization: `Bearer ${border}` } })
    ).json()) as {
      first: string;
    };
    const feed = await pages(replica.url, border, collection.first, 200, (_res, body) => (body as { next?: string }).next);
    row(`Change feed, ${feed.pages} pages from its start (border agency)`, `${feed.msPerPage.toFixed(1)} ms a page`);
    const views = await runLoad({
      url: replica.url,
      connections: 1,
      seconds: 5,
      method: 'GET',
      headers: { authorization: `Bearer ${border}` },
      next: (() => {
        let n = 0;
        return () => ({ path: `${BASE}/consignments/${encodeURIComponent(globalIdFor(1 + ((n++ * 7919) % count), 1))}` });
      })(),
    });
    row('Views never read before, c=1: p50 / p99', `${views.p50.toFixed(1)} / ${views.p99.toFixed(1)} ms (${views.count} views)`);
    const forwarder = await login(replica.url, BENCH_USERS.forwarder);
    let n = 0;
    const cpu = cpuOf(replica.pid);
    const creates = await runLoad({
      url: replica.url,
      connections: 16,
      seconds: 10,
      method: 'POST',
      headers: { authorization: `Bearer ${forwarder}`, 'content-type': 'application/json' },
      next: () => ({ path: `${BASE}/inbox`, body: JSON.stringify(activity('Create', BENCH_USERS.forwarder.org, consignment(n++, 31))) }),
      checkTaskErrors: true,
    });
    row(
      'Create, c=16',
      `${creates.perSecond.toFixed(0)} /s, p99 ${creates.p99.toFixed(0)} ms, node CPU ${((cpuOf(replica.pid) - cpu) / creates.count).toFixed(1)} ms a Create`,
    );
    row('RSS after the workload', mb(replica.pid));

    await replica.kill('SIGTERM');
    const restarted = performance.now();
    replica = await start();
    await replica.until(200, 600_000);
    await firstList(replica.url, await login(replica.url, BENCH_USERS.border));
    row('Restart on the filled tables: to a list answered', seconds(performance.now() - restarted));
    row('RSS after the restart', mb(replica.pid));
    await replica.kill('SIGTERM');
  } finally {
    await Promise.all([virtuoso.stop(), postgres.stop()]);
  }
}

async function main(): Promise<void> {
  const dir = scratchDir('dataspace-bench-scale-');
  mkdirSync(dir, { recursive: true });
  const rows: Row[] = [];
  for (const count of SCALES) await scale(count, rows, dir);
  console.log(`\nA replica at scale (${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)} at the end)\n`);
  console.log(renderTable(rows));
}

await main();
