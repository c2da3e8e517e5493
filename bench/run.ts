/**
 * `npm run bench`: the node side by side with the ceiling of its design and with a peer linked-data
 * server (Community Solid Server), each in its own process on 127.0.0.1, loaded from this process by
 * autocannon over keep-alive connections. Prints one markdown table (see bench/README.md).
 *
 * BENCH_QUICK=1 runs a short version (about a minute of load); BENCH_SCALES=1000,10000 overrides the
 * stored-consignment scales of the read measurements; BENCH_CPU_PROF=<dir> profiles the node processes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot } from '../src/core/project-paths.js';
import { d23bContext } from '../src/core/rdf/document-loader.js';
import { medianOf, median, resultAt, runLoad, type LoadResult, type LoadSpec } from './load.js';
import { startFileServer, type FileServer } from './file-server.js';
import { activity, consignment, document, event, globalIdFor, RUN, target } from './payloads.js';
import { freePort, runScript, startServer, type ServerProcess, NODE_MAIN } from './processes.js';
import { belowTargetScale, check, checkIfMeaningful, shortRuns, loadRow, perSecond, ratio, renderTable, type Row } from './table.js';
import { BENCH_SEED, BENCH_USERS, login, readIndexInMs } from './users.js';
import { capacityRow, rssRows, storeQuads, METRICS_TOKEN, type MemoryAtScale } from './memory-rows.js';
import { externalRows } from './external-store.js';
import { walkFeed } from './feed-walk.js';
import { filteredListRows } from './filtered-list.js';
import { firstReadRows } from './first-read.js';
import { pick } from './pick.js';
import { isolationRows } from './isolation-rows.js';

interface Plan {
  mode: string;
  runs: number;
  writeSeconds: number;
  readSeconds: number;
  warmupSeconds: number;
  scales: number[];
  /** Every n-th seeded consignment also gets an event and a document; views are read on those. */
  extrasEvery: number;
  pool: number;
  restarts: number;
  validationSeconds: number;
  /** The whole run's time budget; a scale that would overrun it is skipped and reported. */
  budgetSeconds: number;
}

const QUICK = process.env.BENCH_QUICK === '1';
const PLAN: Plan = QUICK
  ? {
      mode: 'quick (BENCH_QUICK=1)',
      runs: 3,
      writeSeconds: 1,
      readSeconds: 1,
      warmupSeconds: 0.3,
      scales: [300, 1000],
      extrasEvery: 10,
      pool: 30,
      restarts: 3,
      validationSeconds: 0.5,
      budgetSeconds: 4 * 60,
    }
  : {
      mode: 'full',
      runs: 3,
      writeSeconds: 4,
      readSeconds: 3,
      warmupSeconds: 1,
      scales: [1000, 10000, 100000],
      extrasEvery: 10,
      pool: 200,
      restarts: 3,
      validationSeconds: 2,
      budgetSeconds: 15 * 60,
    };
if (process.env.BENCH_SCALES) PLAN.scales = process.env.BENCH_SCALES.split(',').map(Number);
if (process.env.BENCH_BUDGET_MINUTES) PLAN.budgetSeconds = Number(process.env.BENCH_BUDGET_MINUTES) * 60;

const dist = resolve(projectRoot, 'dist');
const SCRIPTS = {
  node: NODE_MAIN,
  ceiling: join(dist, 'bench', 'ceiling-server.js'),
  css: join(dist, 'bench', 'css-peer.js'),
  bulkSeed: join(dist, 'bench', 'bulk-seed.js'),
  validations: join(dist, 'bench', 'validations.js'),
  isolation: join(dist, 'bench', 'isolation-flood.js'),
};
const INBOX = '/supply-chain/data-space/inbox';
const CONSIGNMENTS = '/supply-chain/data-space/consignments';
const SPARQL = '/supply-chain/data-space/sparql';
const FORWARDER = BENCH_USERS.forwarder.org;

const say = (text: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

const rows: Row[] = [];
let files: FileServer | undefined;
const filesUrl = (): string => files!.url;
const started = new Date();
const startedAt = performance.now();
const loadAtStart = loadavg();
const work = mkdtempSync(join(tmpdir(), 'dataspace-bench-'));
const running = new Set<ServerProcess>();

async function startNode(dataDir: string, name = 'node', extraEnv: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const server = await startServer({
    name,
    script: SCRIPTS.node,
    port,
    logFile: join(work, `${name}.log`),
    readyPath: '/authentication/login',
    // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each node process there (see profile-summary.ts).
    nodeArgs: process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
    env: {
      NODE_ENV: 'production',
      DATASPACE_SEED: BENCH_SEED,
      DATASPACE_DATA_DIR: dataDir,
      DATASPACE_FSYNC: 'on',
      DATASPACE_FETCH_ALLOW: new URL(filesUrl()).hostname,
      // The store's quad count is read from /metrics (the memory rows).
      DATASPACE_METRICS_TOKEN: METRICS_TOKEN,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATASPACE_BASE_URL: `http://127.0.0.1:${port}`,
      ...extraEnv,
    },
  });
  running.add(server);
  return server;
}

async function stop(server: ServerProcess): Promise<void> {
  await server.stop();
  running.delete(server);
}

async function send(
  url: string,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
  contentType = 'application/json',
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/**
 * Waits until a server has worked off what a run left queued (autocannon stops at the deadline with
 * requests in flight, which a slow server still processes): one cheap request answers only then.
 */
async function settle(url: string): Promise<void> {
  try {
    const res = await fetch(`${url}/bench-settle`, { signal: AbortSignal.timeout(120_000) });
    await res.arrayBuffer();
  } catch {
    // A server that does not answer in two minutes shows in the next run's figures.
  }
}

/** A warm-up run, then PLAN.runs measured runs; the median of each figure. */
async function measure(label: string, spec: Omit<LoadSpec, 'seconds'>, seconds: number, server?: ServerProcess): Promise<LoadResult> {
  await runLoad({ ...spec, seconds: PLAN.warmupSeconds });
  await settle(spec.url);
  const results: LoadResult[] = [];
  for (let i = 0; i < PLAN.runs; i++) {
    const cpuBefore = server?.cpuMs();
    const result = await runLoad({ ...spec, seconds });
    await settle(spec.url);
    // CPU per answer does not depend on what else the machine runs, so it compares across busy runs.
    if (server && cpuBefore !== undefined)
      result.cpuMsPerRequest = result.count + result.non2xx === 0 ? NaN : (server.cpuMs() - cpuBefore) / (result.count + result.non2xx);
    results.push(result);
  }
  const m = medianOf(results);
  say(
    `${label} c=${spec.connections}: ${Math.round(m.perSecond)}/s p50 ${m.p50.toFixed(2)} p99 ${m.p99.toFixed(2)} ms non-2xx ${m.non2xx}${m.taskErrors ? ` failed tasks ${m.taskErrors}` : ''}${m.cpuMsPerRequest !== undefined && !Number.isNaN(m.cpuMsPerRequest) ? ` cpu ${m.cpuMsPerRequest.toFixed(2)} ms/req` : ''}`,
  );
  return m;
}

const CONCURRENCY = [1, 16] as const;

async function writes(): Promise<{ create: Record<number, LoadResult> }> {
  const node = await startNode(join(work, 'writes'), 'node-writes');
  const token = await login(node.url, BENCH_USERS.forwarder);
  for (let n = 0; n < PLAN.pool; n++) {
    const res = await send(node.url, 'POST', INBOX, token, activity('Create', FORWARDER, consignment(n, RUN.pool)));
    if (res.status !== 201) throw new Error(`pool Create ${n}: ${res.status} ${await res.text()}`);
  }
  let counter = 0;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const post = (make: () => unknown) => () => ({ path: INBOX, body: JSON.stringify(make()) });
  const poolIndex = () => Math.floor(Math.random() * PLAN.pool);
  const scenarios: [string, () => unknown][] = [
    ['Create', () => activity('Create', FORWARDER, consignment(counter++, RUN.writes))],
    [
      'Update',
      () =>
        activity('Update', FORWARDER, {
          ...consignment(poolIndex(), RUN.pool),
          summaryDescription: `Machine parts, revision ${counter++}`,
        }),
    ],
    [
      'Add event',
      () => {
        const n = poolIndex();
        return activity('Add', FORWARDER, event(), target(n, RUN.pool));
      },
    ],
    [
      'Add document',
      () => {
        const n = poolIndex();
        return activity('Add', FORWARDER, document(`DOC-${counter++}`, filesUrl()), target(n, RUN.pool));
      },
    ],
  ];
  const create: Record<number, LoadResult> = {};
  for (const [name, make] of scenarios) {
    for (const connections of CONCURRENCY) {
      const result = await measure(
        `node ${name}`,
        { url: node.url, connections, method: 'POST', headers, next: post(make), checkTaskErrors: true },
        PLAN.writeSeconds,
        node,
      );
      if (name === 'Create') create[connections] = result;
      rows.push(
        loadRow(
          `Inbox ${name} (node)`,
          'fresh',
          connections,
          result,
          name === 'Create' && connections === 16
            ? checkIfMeaningful('≥ 1,000 /s', result.perSecond >= 1000, shortRuns(PLAN.writeSeconds, PLAN.warmupSeconds))
            : '',
        ),
      );
    }
  }
  await stop(node);
  return { create };
}

async function ceiling(nodeCreate: Record<number, LoadResult>): Promise<void> {
  const port = await freePort();
  const server = await startServer({
    name: 'ceiling',
    script: SCRIPTS.ceiling,
    args: [String(port), join(work, 'ceiling')],
    port,
    logFile: join(work, 'ceiling.log'),
  });
  running.add(server);
  let counter = 0;
  const next = () => ({ path: '/inbox', body: JSON.stringify(activity('Create', FORWARDER, consignment(counter++, RUN.ceiling))) });
  for (const connections of CONCURRENCY) {
    const result = await measure(
      'ceiling Create',
      { url: server.url, connections, method: 'POST', headers: { 'content-type': 'application/json' }, next },
      PLAN.writeSeconds,
      server,
    );
    rows.push(loadRow('Ceiling Create (express + toRDF + Oxigraph load + fsynced log)', 'fresh', connections, result));
    rows.push({
      measure: 'Create node / ceiling',
      stored: 'fresh',
      concurrency: String(connections),
      value: ratio(resultAt(nodeCreate, connections).perSecond, result.perSecond),
      cpu: resultAt(nodeCreate, connections).cpuMsPerRequest! / result.cpuMsPerRequest!,
      target:
        connections === 16
          ? checkIfMeaningful(
              '≥ 1.0×',
              resultAt(nodeCreate, connections).perSecond >= result.perSecond,
              shortRuns(PLAN.writeSeconds, PLAN.warmupSeconds),
            )
          : '',
    });
  }
  await stop(server);
}

/** The peer is no dependency of the project (533 packages for these rows alone): installed on demand. */
const CSS_INSTALL = 'npm install --no-save @solid/community-server@^7.2.0';

function cssInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('@solid/community-server/package.json');
    return true;
  } catch {
    return false;
  }
}

async function peer(nodeCreate: Record<number, LoadResult>): Promise<Record<number, LoadResult> | undefined> {
  if (!cssInstalled()) {
    say(`peer rows skipped: Community Solid Server is not installed (${CSS_INSTALL})`);
    rows.push({ measure: 'Peer: Community Solid Server', stored: '', concurrency: '', value: `skipped: not installed (${CSS_INSTALL})` });
    return undefined;
  }
  const port = await freePort();
  const contextFile = join(work, 'd23b-context.jsonld');
  writeFileSync(contextFile, JSON.stringify({ '@context': d23bContext() }));
  const server = await startServer({
    name: 'css',
    script: SCRIPTS.css,
    args: [String(port), contextFile],
    port,
    logFile: join(work, 'css.log'),
  });
  running.add(server);
  say(`Community Solid Server up in ${Math.round(server.startMs)} ms`);
  const path = (n: number, run: number) => `/consignments/${globalIdFor(n, run).slice('urn:uuid:'.length)}`;
  for (let n = 0; n < PLAN.pool; n++) {
    const res = await send(server.url, 'PUT', path(n, RUN.cssPool), undefined, consignment(n, RUN.cssPool), 'application/ld+json');
    if (res.status >= 300) throw new Error(`CSS PUT ${n}: ${res.status} ${await res.text()}`);
  }
  let counter = 0;
  const put = () => {
    const n = counter++;
    return { path: path(n, RUN.css), body: JSON.stringify(consignment(n, RUN.css)) };
  };
  const get = () => ({ path: path(Math.floor(Math.random() * PLAN.pool), RUN.cssPool) });
  const gets: Record<number, LoadResult> = {};
  for (const connections of CONCURRENCY) {
    const result = await measure(
      'CSS PUT',
      { url: server.url, connections, method: 'PUT', headers: { 'content-type': 'application/ld+json' }, next: put },
      PLAN.writeSeconds,
      server,
    );
    rows.push(loadRow('Peer: CSS PUT of the consignment as JSON-LD', 'fresh', connections, result));
    rows.push({
      measure: 'Create node / CSS PUT',
      stored: 'fresh',
      concurrency: String(connections),
      value: ratio(resultAt(nodeCreate, connections).perSecond, result.perSecond),
      cpu: resultAt(nodeCreate, connections).cpuMsPerRequest! / result.cpuMsPerRequest!,
      target:
        connections === 16
          ? checkIfMeaningful(
              '≥ 10×',
              resultAt(nodeCreate, connections).perSecond >= 10 * result.perSecond,
              shortRuns(PLAN.writeSeconds, PLAN.warmupSeconds),
            )
          : '',
    });
  }
  for (const connections of CONCURRENCY) {
    gets[connections] = await measure(
      'CSS GET',
      { url: server.url, connections, method: 'GET', headers: { accept: 'application/ld+json' }, next: get },
      PLAN.readSeconds,
      server,
    );
    rows.push(loadRow('Peer: CSS GET of the consignment (JSON-LD)', `${PLAN.pool} + PUTs`, connections, gets[connections]));
  }
  await stop(server);
  return gets;
}

/** Cursors the node issued, collected by walking the list with its `Link: rel="next"` headers. */
async function collectCursors(url: string, token: string, max: number): Promise<string[]> {
  const cursors: string[] = [''];
  let next: string | undefined = `${CONSIGNMENTS}?limit=500`;
  while (next && cursors.length < max) {
    const res: Response = await fetch(`${url}${next}`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`list: ${res.status}`);
    const link: string | undefined = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
    const cursor = link ? new URL(link, url).searchParams.get('cursor') : null;
    if (cursor) cursors.push(cursor);
    next = link;
  }
  return cursors;
}

interface ScaleResult {
  scale: number;
  view: Record<number, LoadResult>;
  rssMb: number;
  restartMs: number[];
  memory: MemoryAtScale;
}

/** Activities the bulk seeder sends for consignments from..to-1. */
const seedActivities = (from: number, to: number): number => {
  let extras = 0;
  for (let n = from; n < to; n++) if (n % PLAN.extrasEvery === 0) extras++;
  return to - from + 2 * extras;
};

async function reads(cssGets: Record<number, LoadResult> | undefined): Promise<void> {
  const dataDir = join(work, 'reads');
  const perScale: ScaleResult[] = [];
  let seeded = 0;
  let seedRate = NaN;
  let lastScaleSeconds = 0;
  for (const scale of PLAN.scales) {
    // Keep the whole run inside its budget: a scale whose seeding (at the rate just measured) and
    // reads would overrun it is reported as skipped rather than silently dropped or run for an hour.
    const projected = seedActivities(seeded, scale) / seedRate + lastScaleSeconds * 1.5;
    const left = PLAN.budgetSeconds - (performance.now() - startedAt) / 1000;
    if (!Number.isNaN(projected) && projected > left) {
      rows.push({
        measure: 'Scale skipped to stay in the time budget',
        stored: scale.toLocaleString('en-GB'),
        concurrency: '',
        value: `needs ~${Math.round(projected / 60)} min, ${Math.max(0, Math.round(left / 60))} min left (seeding at ${Math.round(seedRate)}/s); BENCH_BUDGET_MINUTES raises the budget`,
      });
      say(`skipping ${scale}: projected ${Math.round(projected)} s > ${Math.round(left)} s left`);
      continue;
    }
    const scaleStarted = performance.now();
    say(`seeding consignments ${seeded}..${scale - 1} through the inbox pipeline (in-process)`);
    const seedOut = JSON.parse(
      await runScript(SCRIPTS.bulkSeed, [dataDir, BENCH_SEED, String(seeded), String(scale), String(PLAN.extrasEvery), filesUrl()]),
    ) as { activities: number; perSecond: number; snapshotMs: number | null };
    say(
      `seeded ${seedOut.activities} activities at ${seedOut.perSecond}/s${seedOut.snapshotMs === null ? '' : `, with one snapshot beside them (${(seedOut.snapshotMs / 1000).toFixed(1)} s)`}`,
    );
    seedRate = seedOut.perSecond;
    rows.push({
      measure: 'Bulk seed through Ingest (in-process, fsync on, 32 in flight)',
      stored: `${seeded.toLocaleString('en-GB')}→${scale.toLocaleString('en-GB')}`,
      concurrency: '32',
      value: perSecond(seedOut.perSecond),
    });
    seeded = scale;
    const readsStarted = performance.now();

    const restartMs: number[] = [];
    let node = await startNode(dataDir, `node-${scale}`);
    restartMs.push(node.startMs);
    for (let i = 1; i < PLAN.restarts; i++) {
      await stop(node);
      node = await startNode(dataDir, `node-${scale}-restart${i}`);
      restartMs.push(node.startMs);
    }
    say(`node at ${scale} consignments answered ${restartMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')} after start`);
    // The same restart from the N-Quads snapshot only, to show what the memory image saves (docs/durability-images.md).
    await stop(node);
    node = await startNode(dataDir, `node-${scale}-no-images`, { DATASPACE_STORE_IMAGES: 'off' });
    const noImagesMs = node.startMs;
    const noImagesCpuMs = node.cpuMs();
    await stop(node);
    node = await startNode(dataDir, `node-${scale}`);
    const indexInMs = node.startMs + (await readIndexInMs(node.url));

    const ownerToken = await login(node.url, BENCH_USERS.forwarder);
    const borderToken = await login(node.url, BENCH_USERS.border);
    const viewPath = (n: number) => `${CONSIGNMENTS}/${encodeURIComponent(globalIdFor(n, RUN.seed))}`;
    // The border officer reads under the forwarder's policy when policies are in force; otherwise the owner reads.
    const probe = await fetch(`${node.url}${viewPath(0)}`, { headers: { authorization: `Bearer ${borderToken}` } });
    await probe.arrayBuffer();
    const reader = probe.status === 200 ? 'border agency under policy' : 'owner';
    const token = probe.status === 200 ? borderToken : ownerToken;
    const headers = { authorization: `Bearer ${token}` };
    const full = Array.from({ length: Math.ceil(scale / PLAN.extrasEvery) }, (_, i) => i * PLAN.extrasEvery).filter((n) => n < scale);
    const cursors = await collectCursors(node.url, token, 400);
    const stored = scale.toLocaleString('en-GB');
    const notAtScale = belowTargetScale(scale);

    const view: Record<number, LoadResult> = {};
    for (const connections of CONCURRENCY) {
      view[connections] = await measure(
        `GET view @${scale}`,
        { url: node.url, connections, method: 'GET', headers, next: () => ({ path: viewPath(pick(full)) }) },
        PLAN.readSeconds,
        node,
      );
      rows.push(
        loadRow(
          `GET consignment view (${reader}; with event + document)`,
          stored,
          connections,
          resultAt(view, connections),
          connections === 1
            ? checkIfMeaningful('p99 ≤ 3 ms', resultAt(view, 1).p99 <= 3, notAtScale)
            : checkIfMeaningful('≥ 3,000 /s', resultAt(view, 16).perSecond >= 3000, notAtScale),
        ),
      );
    }
    for (const connections of CONCURRENCY) {
      const list = await measure(
        `list @${scale}`,
        {
          url: node.url,
          connections,
          method: 'GET',
          headers,
          next: () => {
            const c = pick(cursors);
            return { path: `${CONSIGNMENTS}?limit=50${c ? `&cursor=${c}` : ''}` };
          },
        },
        PLAN.readSeconds,
        node,
      );
      rows.push(
        loadRow(
          `GET list page, limit 50 (${reader}; random cursor)`,
          stored,
          connections,
          list,
          connections === 1 ? check('p99 ≤ 10 ms', list.p99 <= 10) : '',
        ),
      );
    }
    // A reader back from offline: one walk of the change feed from its start, a page at a time (c=1).
    const feed = await walkFeed(node.url, token);
    rows.push({
      measure: `GET changes, one walk from the start, limit 50 (${reader}; ${feed.pages} pages, ${feed.items.toLocaleString('en-GB')} items)`,
      stored,
      concurrency: '1',
      value: `walk ${(feed.totalMs / 1000).toFixed(1)} s, slowest page ${feed.max.toFixed(1)} ms`,
      p50: feed.p50,
      p99: feed.p99,
    });
    // Filtered lists, each walked from its first page (c=1), with the node's event-loop delay meanwhile.
    await filteredListRows(node.url, token, scale, reader, rows, () => node.cpuMs());
    // The store loaded and its views read, the SPARQL engine not started yet (as it is on a node whose
    // endpoint is not used, or once its threads were released while idle).
    const memory: MemoryAtScale = { scale, rssStoreMb: node.rssMb(), rssEngineMb: NaN, ...(await storeQuads(node.url)) };
    rows.push({
      measure: 'RSS of the node, store loaded, SPARQL engine not started',
      stored,
      concurrency: '',
      value: `${Math.round(memory.rssStoreMb)} MB`,
    });
    const sparqlPath = (n: number) => `${SPARQL}?query=${encodeURIComponent(`SELECT ?p ?o WHERE { <${globalIdFor(n, RUN.seed)}> ?p ?o }`)}`;
    const sparqlProbe = await fetch(`${node.url}${sparqlPath(0)}`, { headers: { ...headers, accept: 'application/sparql-results+json' } });
    await sparqlProbe.arrayBuffer();
    if (sparqlProbe.status === 200) {
      for (const connections of CONCURRENCY) {
        const result = await measure(
          `SPARQL @${scale}`,
          {
            url: node.url,
            connections,
            method: 'GET',
            headers: { ...headers, accept: 'application/sparql-results+json' },
            next: () => ({ path: sparqlPath(pick(full)) }),
          },
          PLAN.readSeconds,
          node,
        );
        rows.push(loadRow(`SPARQL point query (${reader}; one subject's triples)`, stored, connections, result));
      }
    } else {
      rows.push({ measure: 'SPARQL point query', stored, concurrency: '', value: `n/a (endpoint answered ${sparqlProbe.status})` });
    }
    const rssMb = node.rssMb();
    memory.rssEngineMb = rssMb;
    rows.push({
      measure: 'RSS of the node after the reads (SPARQL engine threads loaded)',
      stored,
      concurrency: '',
      value: `${Math.round(rssMb)} MB`,
    });
    rows.push({
      measure: `Restart: start to first answer (snapshot + log replay), median of ${restartMs.length}`,
      stored,
      concurrency: '',
      value: `${(median(restartMs) / 1000).toFixed(2)} s`,
      target: checkIfMeaningful('≤ 10 s', median(restartMs) <= 10_000, notAtScale),
    });
    rows.push({
      measure: 'Restart: start to the read index in (a login and the first list page), one run',
      stored,
      concurrency: '',
      value: `${(indexInMs / 1000).toFixed(2)} s`,
    });
    rows.push({
      measure: 'Restart with memory images off (N-Quads snapshot + log), one run; CPU time of the start',
      stored,
      concurrency: '',
      value: `${(noImagesMs / 1000).toFixed(2)} s (CPU ${(noImagesCpuMs / 1000).toFixed(2)} s)`,
    });
    if (cssGets) {
      rows.push({
        measure: 'GET view node / CSS GET',
        stored: `${stored} vs CSS`,
        concurrency: '16',
        value: ratio(resultAt(view, 16).perSecond, resultAt(cssGets, 16).perSecond),
        cpu: resultAt(view, 16).cpuMsPerRequest! / resultAt(cssGets, 16).cpuMsPerRequest!,
        target: checkIfMeaningful('≥ 10×', resultAt(view, 16).perSecond >= 10 * resultAt(cssGets, 16).perSecond, notAtScale),
      });
    }
    perScale.push({ scale, view, rssMb, restartMs, memory });
    await stop(node);
    lastScaleSeconds = (performance.now() - readsStarted) / 1000;
    say(`scale ${scale} took ${Math.round((performance.now() - scaleStarted) / 1000)} s`);
  }
  rows.push(...rssRows(perScale.map((s) => s.memory)));
  const largest = perScale.at(-1);
  if (largest) rows.push(capacityRow(perScale.map((s) => s.memory)));
}

async function validations(): Promise<void> {
  const out = JSON.parse(await runScript(SCRIPTS.validations, [String(PLAN.validationSeconds), String(PLAN.runs)])) as {
    perSecond?: number[];
    perCpuSecond?: number[];
    unavailable?: string;
  };
  rows.push({
    measure: 'Validations (SHACL, one Create payload each, one core, in-process)',
    stored: '',
    concurrency: '1',
    value: out.perSecond ? perSecond(median(out.perSecond)) : `n/a (${out.unavailable})`,
    // What one core does when it is not shared: validations per CPU-second, as CPU ms per validation.
    cpu: out.perCpuSecond ? 1000 / median(out.perCpuSecond) : undefined,
  });
}

async function main(): Promise<void> {
  say(`${PLAN.mode}; work dir ${work}`);
  files = await startFileServer();
  // BENCH_ONLY=external (or first-read) runs those rows alone; BENCH_EXTERNAL=0 leaves the external ones out.
  if (process.env.BENCH_ONLY === undefined || process.env.BENCH_ONLY === 'first-read') {
    await firstReadRows({ quick: QUICK, work, rows, say, startNode, stop, login });
  }
  if (process.env.BENCH_ONLY === undefined) {
    const { create } = await writes();
    await ceiling(create);
    const cssGets = await peer(create);
    await validations();
    await reads(cssGets);
  }
  // BENCH_ONLY=isolation runs B's flood of large writes alone (fewer Creates in the quick mode).
  if (process.env.BENCH_ONLY === undefined || process.env.BENCH_ONLY === 'isolation') {
    say('isolation: A while B floods the inbox with large Creates');
    await isolationRows(rows, SCRIPTS.isolation, QUICK ? 32 : 96);
  }
  if (process.env.BENCH_EXTERNAL !== '0' && process.env.BENCH_ONLY !== 'first-read' && process.env.BENCH_ONLY !== 'isolation') {
    await externalRows({
      quick: QUICK,
      work,
      rows,
      readSeconds: PLAN.readSeconds,
      writeSeconds: PLAN.writeSeconds,
      warmupSeconds: PLAN.warmupSeconds,
      restarts: PLAN.restarts,
      extrasEvery: PLAN.extrasEvery,
      say,
      startNode,
      stop,
      login,
      measure,
      collectCursors,
      seedEmbedded: async (dataDir, from, to) =>
        JSON.parse(
          await runScript(SCRIPTS.bulkSeed, [dataDir, BENCH_SEED, String(from), String(to), String(PLAN.extrasEvery), filesUrl()], {
            DATASPACE_STORE: 'embedded',
          }),
        ) as { activities: number; perSecond: number },
    });
  }
  const cpu = cpus();
  const heading = [
    `Benchmark of ${started.toISOString().slice(0, 10)} · ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}) · Node ${process.version}`,
    `${PLAN.mode}: medians of ${PLAN.runs} runs (writes ${PLAN.writeSeconds} s, reads ${PLAN.readSeconds} s each, after a ${PLAN.warmupSeconds} s warm-up); ` +
      `node NODE_ENV=production, fsync on, fresh data dir; load client (autocannon, keep-alive) in a separate process on 127.0.0.1; ` +
      `load average ${loadAtStart.map((l) => l.toFixed(2)).join('/')} at start, ${loadavg()
        .map((l) => l.toFixed(2))
        .join('/')} at end.`,
  ];
  process.stdout.write(`\n${heading.join('\n\n')}\n\n${renderTable(rows)}\n`);
}

async function cleanup(): Promise<void> {
  for (const server of running) await server.stop().catch(() => undefined);
  await files?.close();
  if (process.env.BENCH_KEEP !== '1') rmSync(work, { recursive: true, force: true });
}

main().then(cleanup, async (error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  if (rows.length > 0) process.stdout.write(`\nPartial results:\n\n${renderTable(rows)}\n`);
  process.env.BENCH_KEEP = '1';
  await cleanup();
  process.stderr.write(`logs kept in ${work}\n`);
  process.exit(1);
});
