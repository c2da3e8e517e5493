import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { freePort, runScript, startServer, NODE_MAIN } from './processes.js';
import { memoryMap, type MemoryMap } from './memory-map.js';
import { BENCH_SEED, BENCH_USERS } from './users.js';
import { activity, consignment, event, globalIdFor, RUN as RUNS, target } from './payloads.js';
import { percentile } from './load.js';
import { cycled, pick } from './pick.js';

/**
 * Soak: mixed reads, writes, SPARQL and hostile requests (issue 13's table) against a node in its own
 * process, at half of the capacity measured first, for SOAK_MINUTES (default 10; SOAK_SECONDS wins).
 * Prints requests, unexpected statuses and latency by kind, p99 of the normal requests, the node's RSS
 * at start and end and its growth, and the store's quads at start and end. `npm run soak`;
 * SOAK_SECONDS=60 npm run soak for a short run.
 *
 * A fair test of a node in service: the node starts from a store of SOAK_SEED_CONSIGNMENTS consignments
 * (default 100,000, ~8 M quads, three quarters of the default quota; bulk-seeded through the node's own
 * inbox pipeline by bench/bulk-seed.js, ~6 min on a quiet machine, or copied from SOAK_SEEDED_DIR;
 * the node then needs ~8 GB of RAM, up to ~14 GB while a snapshot's images are written; 20,000 fits a
 * small machine, where ten minutes of writes are a larger share of the store), and
 * most writes are Updates and Add events on those, one in five a Create, so the store grows by a
 * fraction rather than twentyfold (a soak of Creates and events from 20 consignments measured the
 * growth of the data, not of the node). Capacity is measured on that store after a warm-up
 * (SOAK_WARMUP_SECONDS, 5), and RSS at start is read once the soak has settled (see settleSeconds).
 *
 * Beside the steady mix, what one busy or noisy organisation does to the others (issue 33): every
 * SOAK_BURST_SECONDS (30) a burst of SOAK_BURST_CREATES (300) Creates at 16 connections, and the
 * forwarder's SOAK_LARGE_POLICIES (3) policies of 39,000 locations each registered before the soak,
 * with a tiny policy registered and withdrawn every SOAK_TOGGLE_SECONDS (20). The node's longest
 * event-loop delay (dataspace_event_loop_delay_max_seconds, polled every 20 s) is printed at the end.
 */
const dist = join(dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.SOAK_SECONDS ?? Number(process.env.SOAK_MINUTES ?? 10) * 60);
const calibrateSeconds = Number(process.env.SOAK_CALIBRATE_SECONDS ?? 15);
const warmupSeconds = Number(process.env.SOAK_WARMUP_SECONDS ?? 5);
const seedConsignments = Number(process.env.SOAK_SEED_CONSIGNMENTS ?? 100_000);
/** A data dir seeded before (bench/bulk-seed.js with bench/seed.json, 0..SOAK_SEED_CONSIGNMENTS): copied instead of seeding again. */
const seededDir = process.env.SOAK_SEEDED_DIR;
/** Hostile requests per second, spread over the kinds in turn. */
const hostilePerSecond = Number(process.env.SOAK_HOSTILE_PER_SECOND ?? 2);
const RUN = 11;
const burstSeconds = Number(process.env.SOAK_BURST_SECONDS ?? 30);
const burstCreates = Number(process.env.SOAK_BURST_CREATES ?? 300);
const largePolicies = Number(process.env.SOAK_LARGE_POLICIES ?? 3);
const toggleSeconds = Number(process.env.SOAK_TOGGLE_SECONDS ?? 20);
const POLICIES = '/supply-chain/data-space/policies';
const INBOX = '/supply-chain/data-space/inbox';
const CONSIGNMENTS = '/supply-chain/data-space/consignments';
const SPARQL = '/supply-chain/data-space/sparql';
const VALIDATE = '/supply-chain/data-space/validate';
const LOGIN = '/authentication/login';

interface Request {
  method: string;
  path: string;
  body?: string | Blob;
  headers?: Record<string, string>;
  token?: string;
  /** Told the answer's status (a Create's consignment is read only once it was acknowledged). */
  answered?: (status: number) => void;
}

interface Kind {
  name: string;
  hostile: boolean;
  /** Statuses this request is meant to get; anything else is an error. */
  expect: number[];
  make: () => Request;
}

const METRICS_TOKEN = 'soak-metrics-token-not-secret';

async function metricsText(): Promise<string> {
  return (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
}

const metric = (text: string, name: string): number => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);

/**
 * Quads the store holds and the removed quads its memory still holds (until a compaction), from
 * /metrics: RSS growth is read beside what the soak itself wrote.
 */
async function storeQuads(): Promise<{ live: number; removed: number }> {
  const text = await metricsText();
  return { live: metric(text, 'dataspace_store_quads'), removed: metric(text, 'dataspace_store_removed_quads') };
}

/**
 * Where the memory is, once a minute: RSS beside the quads, the V8 heap, the main thread's external
 * memory and the resident part of each large mapping (the WebAssembly memories of the store and of the engine threads' copies).
 */
const timeline: { s: number; rssMb: number; quads: number; removed: number; heapMb: number; externalMb: number; map: MemoryMap }[] = [];
async function sampleTimeline(s: number, rssMb: number): Promise<void> {
  const map = memoryMap(server.pid);
  const text = await metricsText().catch(() => '');
  timeline.push({
    s,
    rssMb,
    quads: metric(text, 'dataspace_store_quads'),
    removed: metric(text, 'dataspace_store_removed_quads'),
    heapMb: metric(text, 'nodejs_heap_size_used_bytes') / 2 ** 20,
    externalMb: metric(text, 'nodejs_external_memory_bytes') / 2 ** 20,
    map,
  });
}

const work = mkdtempSync(join(tmpdir(), 'dataspace-soak-'));
if (seededDir) {
  cpSync(seededDir, join(work, 'data'), { recursive: true });
  console.log(`started from a copy of ${seededDir} (${seedConsignments} consignments)`);
} else if (seedConsignments > 0) {
  const t = performance.now();
  // No documents (extras 0): the soak runs no file server; the URL is only parsed.
  await runScript(
    join(dist, 'bench', 'bulk-seed.js'),
    [join(work, 'data'), BENCH_SEED, '0', String(seedConsignments), '0', 'http://127.0.0.1:9'],
    { DATASPACE_LOG: 'warn' },
  );
  console.log(`seeded ${seedConsignments} consignments in ${((performance.now() - t) / 1000).toFixed(0)} s`);
}
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = await startServer({
  name: 'node',
  script: NODE_MAIN,
  port,
  logFile: join(work, 'node.log'),
  readyPath: LOGIN,
  // SOAK_CPU_PROF=<dir>: the node's CPU profile (one per thread) goes there, to find what holds its event loop.
  nodeArgs: process.env.SOAK_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SOAK_CPU_PROF}`] : [],
  env: {
    NODE_ENV: 'production',
    DATASPACE_SEED: BENCH_SEED,
    DATASPACE_DATA_DIR: join(work, 'data'),
    DATASPACE_FSYNC: 'on',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATASPACE_BASE_URL: url,
    DATASPACE_LOG: process.env.SOAK_LOG ?? 'warn',
    DATASPACE_METRICS_TOKEN: METRICS_TOKEN,
    // The large policies name 39,000 locations each: over the default bound on one policy's values.
    DATASPACE_QUOTA_POLICY_VALUES: '40000',
  },
});

async function send(r: Request): Promise<{ status: number; ms: number; text: string }> {
  const headers: Record<string, string> = { ...r.headers };
  if (r.token) headers.authorization = `Bearer ${r.token}`;
  const started = performance.now();
  try {
    const res = await fetch(`${url}${r.path}`, { method: r.method, headers, body: r.body, signal: AbortSignal.timeout(60_000) });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - started, text };
  } catch (error) {
    return { status: 0, ms: performance.now() - started, text: (error as Error).message };
  }
}

async function login(user: keyof typeof BENCH_USERS): Promise<string> {
  const { email, password } = BENCH_USERS[user];
  const res = await fetch(`${url}${LOGIN}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const token = /access_token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!token) throw new Error(`login ${user}: ${res.status}`);
  return token;
}

const forwarder = await login('forwarder');
const border = await login('border');
const json = { 'content-type': 'application/json' };
const did = BENCH_USERS.forwarder.org;
let created = 0;
/** Consignments whose Create was acknowledged: reads and Adds pick among these, never one still in flight. */
const acknowledged: number[] = [];
const create = (): Request => {
  const n = created++;
  return {
    method: 'POST',
    path: INBOX,
    token: forwarder,
    headers: json,
    body: JSON.stringify(activity('Create', did, consignment(n, RUN))),
    answered: (status) => {
      if (status === 201) acknowledged.push(n);
    },
  };
};
/** The consignments reads, Updates and Adds pick among: the seeded ones, or without a seed the first Creates. */
const some = (): { n: number; run: number } => {
  if (seedConsignments > 0) return { n: Math.floor(Math.random() * seedConsignments), run: RUNS.seed };
  return { n: pick(acknowledged), run: RUN };
};
if (seedConsignments === 0) {
  for (let i = 0; i < 20; i++) {
    const request = create();
    const res = await send(request);
    if (res.status !== 201) throw new Error(`seeding: ${res.status} ${res.text.slice(0, 300)}`);
    request.answered!(res.status);
  }
}
const someGlobalId = (): string => {
  const { n, run } = some();
  return globalIdFor(n, run);
};
const someTarget = (): Record<string, unknown> => {
  const { n, run } = some();
  return target(n, run);
};
let revision = 0;
const update = (): Request => {
  const { n, run } = some();
  const body = activity('Update', did, { ...consignment(n, run), summaryDescription: `Machine parts, lot ${n}, revision ${revision++}` });
  return { method: 'POST', path: INBOX, token: forwarder, headers: json, body: JSON.stringify(body) };
};

const nestedJson = (() => {
  const body = JSON.stringify(activity('Create', did, { ...consignment(0, RUN + 1), consignor: '__N__' }));
  return body.replace('"__N__"', `${'{"consignor":'.repeat(5000)}1${'}'.repeat(5000)}`);
})();
const bigArray = JSON.stringify(
  activity('Create', did, { ...consignment(0, RUN + 1), includedConsignmentItem: Array.from({ length: 15_000 }, (_, i) => i) }),
);
const hugeEmail = JSON.stringify({ email: `${'a'.repeat(900 * 1024)}@example.org`, password: 'x' });
const sparqlBody = (query: string, token: string): Request => ({
  method: 'POST',
  path: SPARQL,
  token,
  body: query,
  headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json' },
});
let spray = 0;

const kinds: Kind[] = [
  { name: 'read list', hostile: false, expect: [200], make: () => ({ method: 'GET', path: `${CONSIGNMENTS}?limit=20`, token: border }) },
  {
    name: 'read one',
    hostile: false,
    expect: [200],
    make: () => ({ method: 'GET', path: `${CONSIGNMENTS}/${encodeURIComponent(someGlobalId())}`, token: forwarder }),
  },
  { name: 'write Update', hostile: false, expect: [201], make: update },
  {
    name: 'write Add event',
    hostile: false,
    expect: [201],
    make: () => ({
      method: 'POST',
      path: INBOX,
      token: forwarder,
      headers: json,
      body: JSON.stringify(activity('Add', did, event(), someTarget())),
    }),
  },
  { name: 'write Create', hostile: false, expect: [201], make: create },
  {
    name: 'SPARQL select',
    hostile: false,
    expect: [200],
    make: () => sparqlBody('SELECT ?c ?id WHERE { ?c <https://vocabulary.uncefact.org/globalId> ?id } LIMIT 20', border),
  },
  {
    name: 'SPARQL 3,000 nested groups',
    hostile: true,
    expect: [400],
    make: () => sparqlBody(`SELECT * WHERE ${'{ '.repeat(3000)}?s ?p ?o${' }'.repeat(3000)}`, border),
  },
  {
    name: 'SPARQL 700 nested OPTIONALs',
    hostile: true,
    expect: [400],
    make: () => sparqlBody(`SELECT * WHERE { ?s ?p ?o ${'OPTIONAL { ?s ?p ?o '.repeat(700)}${'}'.repeat(700)} }`, border),
  },
  // Heavy but finite (~0.3 s of engine), from the forwarder while the border agency sends the selects:
  // it holds at most one of the engine threads (DATASPACE_SPARQL_THREADS, default 2), so the selects
  // find the other; with one thread they wait behind it (docs/security-sparql-and-readers.md).
  {
    name: 'SPARQL heavy (216k-row count)',
    hostile: true,
    expect: [200],
    make: () =>
      sparqlBody(
        `SELECT (COUNT(*) AS ?n) WHERE { ${['a', 'b', 'c'].map((v) => `VALUES ?${v} { ${Array.from({ length: 60 }, (_, i) => i).join(' ')} }`).join(' ')} }`,
        forwarder,
      ),
  },
  {
    name: 'inbox JSON 5,000 deep in object',
    hostile: true,
    expect: [400],
    make: () => ({ method: 'POST', path: INBOX, token: forwarder, headers: json, body: nestedJson }),
  },
  {
    name: 'validate 15,000-item array',
    hostile: true,
    expect: [413],
    make: () => ({ method: 'POST', path: VALIDATE, token: forwarder, headers: json, body: bigArray }),
  },
  {
    name: 'login 900 KB email',
    hostile: true,
    expect: [400, 401, 413, 429],
    make: () => ({ method: 'POST', path: LOGIN, headers: json, body: hugeEmail }),
  },
  {
    name: 'wrong-login spray',
    hostile: true,
    expect: [401, 429],
    make: () => ({
      method: 'POST',
      path: LOGIN,
      headers: json,
      body: JSON.stringify({ email: `spray-${spray++}@example.org`, password: 'wrong' }),
    }),
  },
  {
    name: 'deflate garbage',
    hostile: true,
    expect: [400, 415],
    make: () => ({
      method: 'POST',
      path: INBOX,
      token: forwarder,
      headers: { ...json, 'content-encoding': 'deflate' },
      body: new Blob(['this is not deflate at all']),
    }),
  },
  {
    name: 'deflate of nested JSON',
    hostile: true,
    expect: [400],
    make: () => ({
      method: 'POST',
      path: INBOX,
      token: forwarder,
      headers: { ...json, 'content-encoding': 'deflate' },
      body: new Blob([new Uint8Array(deflateRawSync(nestedJson))]),
    }),
  },
  {
    name: '%ZZ in a path parameter',
    hostile: true,
    expect: [400, 404],
    make: () => ({ method: 'GET', path: `${CONSIGNMENTS}/%ZZ`, token: forwarder }),
  },
  {
    name: 'SSRF notification endpoint',
    hostile: true,
    expect: [400, 403, 422],
    make: () => ({
      method: 'PUT',
      path: '/supply-chain/data-space/notification-endpoint',
      token: border,
      headers: json,
      body: JSON.stringify({ url: 'http://169.254.169.254/latest/meta-data' }),
    }),
  },
];
/** A tiny policy registered, then withdrawn: one request each, both counted under this kind. */
const toggle: Kind = {
  name: 'policy toggle (tiny, beside the large ones)',
  hostile: false,
  expect: [201, 204],
  make: () => ({
    method: 'POST',
    path: POLICIES,
    token: forwarder,
    headers: json,
    body: JSON.stringify({ role: 'borderAgency', countries: ['FR'] }),
  }),
};
const burstCreate: Kind = { name: 'burst Create (16 at once)', hostile: false, expect: [201], make: create };
kinds.push(toggle, burstCreate);
const normal = kinds.filter((k) => !k.hostile && k !== toggle && k !== burstCreate);
/**
 * How often each normal kind comes in a round of the mix: most writes change what is there (Updates,
 * events), one in five creates; reads and SPARQL are the other half.
 */
const WEIGHTS: Record<string, number> = {
  'read list': 2,
  'read one': 2,
  'write Update': 3,
  'write Add event': 1,
  'write Create': 1,
  'SPARQL select': 2,
};
const round: Kind[] = [];
for (let i = 0; round.length < normal.reduce((sum, k) => sum + (WEIGHTS[k.name] ?? 1), 0); i++) {
  // Interleaved (read, write, read, …) rather than each kind's turns in a block.
  for (const k of normal) if (i < (WEIGHTS[k.name] ?? 1)) round.push(k);
}
const hostile = kinds.filter((k) => k.hostile);

interface Tally {
  sent: number;
  errors: number;
  statuses: Map<number, number>;
  ms: number[];
}
const tallies = new Map(kinds.map((k): [string, Tally] => [k.name, { sent: 0, errors: 0, statuses: new Map(), ms: [] }]));
async function fire(kind: Kind, record = true): Promise<void> {
  const request = kind.make();
  const res = await send(request);
  request.answered?.(res.status);
  if (!record) return;
  const t = tallies.get(kind.name)!;
  t.sent++;
  t.statuses.set(res.status, (t.statuses.get(res.status) ?? 0) + 1);
  if (!kind.expect.includes(res.status)) {
    t.errors++;
    if (t.errors <= 3) console.error(`unexpected ${res.status} for ${kind.name}: ${res.text.slice(0, 200)}`);
  }
  t.ms.push(res.ms);
}

/** `count` (at most 39,304) UN/LOCODE-shaped codes of the `tag`-th two-letter prefix. */
function locations(count: number, tag: number): string[] {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const tail = `${letters}23456789`;
  const prefix = `${letters[tag % 26]}${letters[Math.floor(tag / 26) % 26]}`;
  return Array.from(
    { length: count },
    (_, i) => `${prefix}${tail[Math.floor(i / 1156) % 34]}${tail[Math.floor(i / 34) % 34]}${tail[i % 34]}`,
  );
}
for (let i = 0; i < largePolicies; i++) {
  const res = await send({
    method: 'POST',
    path: POLICIES,
    token: forwarder,
    headers: json,
    body: JSON.stringify({ role: 'locationOperator', locations: locations(39_000, i) }),
  });
  if (res.status !== 201) throw new Error(`large policy ${i}: ${res.status} ${res.text.slice(0, 300)}`);
}
if (largePolicies > 0) console.log(`registered ${largePolicies} policies of 39,000 locations`);

/** A toggle: the tiny policy registered, then withdrawn once acknowledged. */
async function fireToggle(): Promise<void> {
  const request = toggle.make();
  request.answered = () => undefined;
  const t = tallies.get(toggle.name)!;
  const record = (res: { status: number; ms: number; text: string }) => {
    t.sent++;
    t.statuses.set(res.status, (t.statuses.get(res.status) ?? 0) + 1);
    t.ms.push(res.ms);
    if (!toggle.expect.includes(res.status)) {
      t.errors++;
      if (t.errors <= 3) console.error(`unexpected ${res.status} for ${toggle.name}: ${res.text.slice(0, 200)}`);
    }
  };
  const registered = await send(request);
  record(registered);
  if (registered.status !== 201) return;
  const id = (JSON.parse(registered.text) as { id: string }).id;
  record(await send({ method: 'DELETE', path: `${POLICIES}/${encodeURIComponent(id)}`, token: forwarder }));
}

/** A burst: burstCreates Creates over 16 connections, no pause. */
async function fireBurst(): Promise<void> {
  let left = burstCreates;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (left > 0) {
        left--;
        await fire(burstCreate);
      }
    }),
  );
}

let loopMaxSeconds = 0;
async function pollLoop(): Promise<void> {
  const text = await metricsText().catch(() => '');
  const seconds = metric(text, 'dataspace_event_loop_delay_max_seconds');
  if (Number.isFinite(seconds)) loopMaxSeconds = Math.max(loopMaxSeconds, seconds);
}

// Warm-up, not counted: each kind twice at once, hostile ones included, so both SPARQL engine threads
// (started by the first queries, each reading the data dir) and the caches are up before capacity is measured;
// then the mix for a few seconds, as the calibration will run it. A caller's first SPARQL query makes
// each engine thread work out the graphs it may see (about two seconds for the forwarder's 240k
// graphs at 60k consignments): left to the soak's first second, it made the border agency's selects
// overflow their waiting slots (6 answered 503 at 88.9 req/s).
for (const kind of [...normal, ...hostile]) await Promise.all([fire(kind, false), fire(kind, false)]);
const warmUntil = performance.now() + warmupSeconds * 1000;
await Promise.all(
  Array.from({ length: 8 }, async (_, w) => {
    for (let i = w; performance.now() < warmUntil; i++) await fire(cycled(round, i), false);
  }),
);

// Capacity: the normal mix, closed loop on 8 connections.
let done = 0;
const calibrateUntil = performance.now() + calibrateSeconds * 1000;
await Promise.all(
  Array.from({ length: 8 }, async (_, w) => {
    for (let i = w; performance.now() < calibrateUntil; i++) {
      await fire(cycled(round, i), false);
      done++;
    }
  }),
);
const capacity = done / calibrateSeconds;
const rate = capacity / 2;
console.log(
  `capacity of the normal mix: ${capacity.toFixed(1)} req/s; soak at ${rate.toFixed(1)} req/s normal + ${hostilePerSecond} hostile req/s for ${seconds} s (load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')})`,
);

const rssAfterCalibration = server.rssMb();
let quadsStart = await storeQuads();
const started = performance.now();
/**
 * RSS at start is read once the soak has run for its settle time (SOAK_SETTLE_SECONDS, default a tenth
 * of the run, at most 60 s): right after start-up and calibration the heap still holds their garbage
 * (a 90-second soak read 894 MB then and 662 MB at its end), which would hide growth.
 *
 * RSS at start and at end are each the median of the 5-second samples over a window
 * (SOAK_RSS_WINDOW_SECONDS, default 30, at most a tenth of the run): a snapshot's memory image holds a
 * copy of the store's memory for the seconds it takes to write (+1.4 GB at 60k consignments), and one
 * sample landing on it would read as growth or hide it. Every sample's maximum is printed too.
 */
const settleSeconds = Number(process.env.SOAK_SETTLE_SECONDS ?? Math.min(60, seconds / 10));
const windowSeconds = Number(process.env.SOAK_RSS_WINDOW_SECONDS ?? Math.min(30, seconds / 10));
const rssSamples: { s: number; mb: number }[] = [];
const medianOf = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
};
let startQuadsRead = false;
let rssMax = rssAfterCalibration;
let lastSample = started;
let lastTimeline = started;
const inFlight = new Set<Promise<void>>();
let normalDue = 0;
let hostileDue = 0;
let n = 0;
let h = 0;
let skipped = 0;
let last = started;
let lastBurst = started;
let lastToggle = started;
let lastLoopPoll = started;
while (performance.now() - started < seconds * 1000) {
  await new Promise((ok) => setTimeout(ok, 10));
  const now = performance.now();
  if (burstCreates > 0 && now - lastBurst >= burstSeconds * 1000) {
    lastBurst = now;
    const p = fireBurst().finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  if (toggleSeconds > 0 && now - lastToggle >= toggleSeconds * 1000) {
    lastToggle = now;
    const p = fireToggle().finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  if (now - lastLoopPoll >= 20_000) {
    lastLoopPoll = now;
    void pollLoop();
  }
  if (!startQuadsRead && now - started >= (settleSeconds + windowSeconds / 2) * 1000) {
    startQuadsRead = true;
    // The store as it is in the middle of the start window: growth is set beside the quads written after it.
    void storeQuads().then((q) => {
      quadsStart = q;
    });
  }
  if (now - lastSample >= 5000) {
    const mb = server.rssMb();
    rssSamples.push({ s: (now - started) / 1000, mb });
    rssMax = Math.max(rssMax, mb);
    lastSample = now;
  }
  if (now - lastTimeline >= 60_000) {
    lastTimeline = now;
    void sampleTimeline(Math.round((now - started) / 1000), server.rssMb());
  }
  normalDue += ((now - last) / 1000) * rate;
  hostileDue += ((now - last) / 1000) * hostilePerSecond;
  last = now;
  for (; normalDue >= 1; normalDue--) {
    // Open loop with a ceiling: a node that stops answering shows as skipped requests, not an unbounded queue here.
    if (inFlight.size >= 256) {
      skipped++;
      continue;
    }
    const p = fire(cycled(round, n++)).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  for (; hostileDue >= 1; hostileDue--) {
    const p = fire(cycled(hostile, h++)).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
}
await Promise.all(inFlight);
await pollLoop();
const elapsed = (performance.now() - started) / 1000;
rssSamples.push({ s: elapsed, mb: server.rssMb() });
const quadsEnd = await storeQuads();
const rssStart = medianOf(rssSamples.filter((r) => r.s >= settleSeconds && r.s < settleSeconds + windowSeconds).map((r) => r.mb));
const rssEnd = medianOf(rssSamples.filter((r) => r.s >= elapsed - windowSeconds).map((r) => r.mb));
await server.stop();

const p = (ms: number[], q: number) => percentile(Float64Array.from(ms).sort(), q);
const rows = kinds.map((k) => {
  const t = tallies.get(k.name)!;
  const statuses = [...t.statuses]
    .sort((a, b) => a[0] - b[0])
    .map(([s, c]) => `${s}×${c}`)
    .join(' ');
  return `| ${k.hostile ? 'hostile' : 'normal'} | ${k.name} | ${t.sent} | ${t.errors} | ${statuses} | ${p(t.ms, 0.5).toFixed(1)} | ${p(t.ms, 0.99).toFixed(1)} |`;
});
const normalMs = normal.flatMap((k) => tallies.get(k.name)!.ms);
const errors = kinds.reduce((sum, k) => sum + tallies.get(k.name)!.errors, 0);
console.log(
  `\nsoak: ${elapsed.toFixed(0)} s, load average at the end ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\n`,
);
console.log('| | kind | requests | errors | statuses | p50 ms | p99 ms |');
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
console.log(`\nerrors (unexpected statuses): ${errors}; skipped (256 in flight): ${skipped}`);
console.log(
  `p99 of the normal requests: ${p(normalMs, 0.99).toFixed(1)} ms (p50 ${p(normalMs, 0.5).toFixed(1)} ms, ${normalMs.length} requests)`,
);
console.log(
  `RSS: ${rssAfterCalibration.toFixed(0)} MB after calibration, ${rssStart.toFixed(0)} MB at start (median of ${settleSeconds}–${settleSeconds + windowSeconds} s), ${rssEnd.toFixed(0)} MB at end (median of the last ${windowSeconds} s; ${(((rssEnd - rssStart) / rssStart) * 100).toFixed(1)} %), at most ${rssMax.toFixed(0)} MB; every 5 s: ${rssSamples.map((r) => r.mb.toFixed(0)).join(' ')}`,
);
const held = (q: { live: number; removed: number }) => q.live + q.removed;
console.log(
  `store: ${quadsStart.live} quads at start, ${quadsEnd.live} at end (${(((quadsEnd.live - quadsStart.live) / quadsStart.live) * 100).toFixed(1)} %, the soak's writes); removed quads still held: ${quadsStart.removed} at start, ${quadsEnd.removed} at end`,
);
console.log(
  `quads in memory (live + removed): ${held(quadsStart)} at start, ${held(quadsEnd)} at end (${(((held(quadsEnd) - held(quadsStart)) / held(quadsStart)) * 100).toFixed(1)} %); RSS growth per 1,000 of them: ${(((rssEnd - rssStart) / Math.max(1, held(quadsEnd) - held(quadsStart))) * 1000).toFixed(2)} MB`,
);
console.log(
  '\n| s | RSS MB | quads | removed quads held | V8 heap used MB | main thread external MB | large mappings (WebAssembly memories, image buffers), resident MB | rest MB |\n|---|---|---|---|---|---|---|---|',
);
for (const t of timeline.sort((a, b) => a.s - b.s)) {
  console.log(
    `| ${t.s} | ${t.rssMb.toFixed(0)} | ${t.quads} | ${t.removed} | ${t.heapMb.toFixed(0)} | ${t.externalMb.toFixed(0)} | ${t.map.largeMb.map((mb) => mb.toFixed(0)).join(' + ')} | ${t.map.otherMb.toFixed(0)} |`,
  );
}
console.log(
  `longest event-loop delay of the node during the soak (bursts of ${burstCreates} Creates every ${burstSeconds} s, a tiny policy toggled every ${toggleSeconds} s beside ${largePolicies} of 39,000 locations): ${(loopMaxSeconds * 1000).toFixed(0)} ms`,
);
console.log(`soak criteria: errors 0 (${errors}), RSS growth < 10 % (${(((rssEnd - rssStart) / rssStart) * 100).toFixed(1)} %)`);
// What the node itself warned about (a thread replaced, a snapshot, a slow start), by message.
const warnings = new Map<string, number>();
for (const line of readFileSync(join(work, 'node.log'), 'utf8').split('\n')) {
  try {
    const entry = JSON.parse(line) as { level?: number; msg?: string };
    if ((entry.level ?? 0) >= 40 && entry.msg) warnings.set(entry.msg, (warnings.get(entry.msg) ?? 0) + 1);
  } catch {
    /* not a log line */
  }
}
for (const [msg, count] of [...warnings].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`node warned ${count}×: ${msg}`);
if (process.env.SOAK_KEEP) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
process.exit(errors === 0 && skipped === 0 ? 0 : 1);
