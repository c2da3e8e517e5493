/**
 * Where a Create's time goes on the external store: node CPU, Virtuoso CPU and the SPARQL requests the
 * node sent (from its debug log: count, kind, time to the server's answer), for Create runs at
 * c=1 and c=16 on a fresh Virtuoso. Run: node dist/bench/external-profile.js [seconds] [workDir]
 * Prints one JSON line per run. Needs virtuoso-t (test/helpers/virtuoso.ts).
 *
 * node dist/bench/external-profile.js views <embeddedDataDir seeded by bulk-seed> <its scale> [views=20]: loads that
 * state into a fresh Virtuoso (external-bulk-load.ts), starts the node on it (the start's requests),
 * reads views never read before one at a time as the border agency (after a warm-up on consignments
 * without extras), and prints every SPARQL request of each view with its time to answer and Virtuoso's
 * CPU for the view, then p50/p90/p99 and Virtuoso's and the node's CPU a view; then replays each query text
 * of the last view (planned again, since Virtuoso caches plans by text) to separate planning from
 * running. With EXTERNAL_SPARQL_URL=<url> it reads from a server already loaded with that dir's state.
 * PROFILE_LOG=info leaves the node's per-request debug log out (it costs node CPU); PROFILE_QUIET=1
 * prints the summary only; BENCH_CPU_PROF=<dir> writes the node's CPU profile there.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Virtuoso } from '../test/helpers/virtuoso.js';
import { bulkLoad } from './external-bulk-load.js';
import { runLoad } from './load.js';
import { activity, consignment, globalIdFor, RUN } from './payloads.js';
import { freePort, startServer, NODE_MAIN } from './processes.js';
import { BENCH_SEED, BENCH_USERS } from './users.js';

const TICK_MS = 10;
const cpuOf = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
};

interface RequestLine {
  msg?: string;
  ms?: number;
  kind?: string;
  text?: string;
}

/** The sparql request lines the node logged since `from` bytes into its log. */
function requestsSince(logFile: string, from: number): RequestLine[] {
  const text = readFileSync(logFile, 'utf8').slice(from);
  const out: RequestLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.includes('sparql request')) continue;
    try {
      out.push(JSON.parse(line) as RequestLine);
    } catch {
      /* not a JSON line */
    }
  }
  return out;
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
};

async function views(dataDir: string, scale: number, count: number): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'dataspace-ext-views-'));
  const url = process.env.EXTERNAL_SPARQL_URL;
  // VIRTUOSO_PARAMETERS='Name=value;Name=value' adds [Parameters] lines, to compare server tuning.
  const parameters = Object.fromEntries(
    (process.env.VIRTUOSO_PARAMETERS ?? '')
      .split(';')
      .filter(Boolean)
      .map((kv) => kv.split('=') as [string, string]),
  );
  const started = url ? undefined : await Virtuoso.start({ buffers: Number(process.env.BENCH_VIRTUOSO_BUFFERS ?? 340_000), parameters });
  // A server started elsewhere: its CPU time from its pid (EXTERNAL_SPARQL_PID), else not measured.
  const virtuoso = started ?? {
    pid: Number(process.env.EXTERNAL_SPARQL_PID ?? process.pid),
    sparqlUrl: url!,
    env: () => ({ DATASPACE_STORE: 'sparql', DATASPACE_SPARQL_QUERY_URL: url!, DATASPACE_SPARQL_UPDATE_URL: url! }),
  };
  try {
    if (started) {
      const loaded = await bulkLoad(started, dataDir);
      process.stdout.write(
        `${JSON.stringify({
          loaded,
          parameters,
          load: loadavg()
            .map((l) => l.toFixed(2))
            .join('/'),
        })}\n`,
      );
    }
    const port = await freePort();
    const logFile = join(work, 'node.log');
    const startCpu = cpuOf(virtuoso.pid);
    const node = await startServer({
      name: 'node',
      script: NODE_MAIN,
      port,
      logFile,
      readyPath: '/authentication/login',
      nodeArgs: process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
      env: {
        NODE_ENV: 'production',
        DATASPACE_SEED: BENCH_SEED,
        DATASPACE_DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATASPACE_BASE_URL: `http://127.0.0.1:${port}`,
        DATASPACE_LOG: process.env.PROFILE_LOG ?? 'debug',
        ...virtuoso.env(),
      },
    });
    try {
      const startRequests = requestsSince(logFile, 0);
      process.stdout.write(
        `${JSON.stringify({
          startMs: Math.round(node.startMs),
          virtuosoCpuMs: cpuOf(virtuoso.pid) - startCpu,
          requests: startRequests.length,
          slowest: startRequests
            .sort((a, b) => b.ms! - a.ms!)
            .slice(0, 6)
            .map((r) => ({ ms: r.ms, text: (r.text ?? '').replace(/\s+/g, ' ').slice(0, 140) })),
        })}\n`,
      );
      const res = await fetch(`${node.url}/authentication/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: BENCH_USERS.border.email, password: BENCH_USERS.border.password }),
      });
      const token = /access_token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
      if (!token) throw new Error(`login: ${res.status}`);
      let last: RequestLine[] = [];
      const viewMs: number[] = [];
      let viewCpu = 0;
      let nodeCpu = 0;
      // Measured once the read index is in (the list answers 503 until then), as npm run bench does:
      // at 100k its load takes seconds of the node's CPU, which would count against the first views.
      for (;;) {
        const list = await fetch(`${node.url}/supply-chain/data-space/consignments?limit=1`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await list.arrayBuffer();
        if (list.status !== 503) break;
      }
      const read = (n: number) =>
        fetch(`${node.url}/supply-chain/data-space/consignments/${encodeURIComponent(globalIdFor(n, RUN.seed))}`, {
          headers: { authorization: `Bearer ${token}` },
        });
      // Warm-up, not measured: consignments without events or documents (JIT, the server's buffers).
      for (let n = 1; n < Math.min(scale, Number(process.env.PROFILE_WARMUP ?? 300)); n++)
        if (n % 10 !== 0) await (await read(n)).arrayBuffer();
      // Views never read before: each consignment with an event and a document once, in a shuffled order
      // (a fresh server per run, so Virtuoso has planned none of these texts either).
      const order = Array.from({ length: Math.floor(scale / 10) }, (_, i) => 10 * i)
        .sort(() => Math.random() - 0.5)
        .slice(0, count);
      for (const n of order) {
        const logFrom = statSync(logFile).size;
        const cpu = cpuOf(virtuoso.pid);
        const cpuNode = node.cpuMs();
        const started = performance.now();
        const view = await read(n);
        await view.arrayBuffer();
        const ms = performance.now() - started;
        const spentNode = node.cpuMs() - cpuNode;
        await new Promise((ok) => setTimeout(ok, Number(process.env.PROFILE_PAUSE_MS ?? 50)));
        const requests = requestsSince(logFile, logFrom);
        if (view.status === 200) {
          viewMs.push(ms);
          viewCpu += cpuOf(virtuoso.pid) - cpu;
          nodeCpu += spentNode;
        }
        if (view.status === 200) last = requests;
        if (process.env.PROFILE_QUIET) continue;
        process.stdout.write(
          `${JSON.stringify({
            view: n,
            status: view.status,
            ms: +ms.toFixed(1),
            virtuosoCpuMs: cpuOf(virtuoso.pid) - cpu,
            requests: requests.map((r) => ({
              ms: r.ms,
              text: (r.text ?? '')
                .replace(/\s+/g, ' ')
                .replace(/^(# [^#]*?)?(PREFIX [^>]*> )*/, '')
                .slice(0, 90),
            })),
          })}\n`,
        );
      }
      process.stdout.write(
        `${JSON.stringify({
          summary: {
            views: viewMs.length,
            p50: +pct(viewMs, 0.5).toFixed(1),
            p90: +pct(viewMs, 0.9).toFixed(1),
            p99: +pct(viewMs, 0.99).toFixed(1),
            virtuosoCpuMsPerView: +(viewCpu / viewMs.length).toFixed(1),
            nodeCpuMsPerView: +(nodeCpu / viewMs.length).toFixed(1),
          },
          load: loadavg()
            .map((l) => l.toFixed(2))
            .join('/'),
        })}\n`,
      );
      // The last view's texts again, straight to Virtuoso: a plan from its cache the second time.
      for (const r of process.env.PROFILE_QUIET ? [] : last) {
        const times: number[] = [];
        for (let k = 0; k < 3; k++) {
          const t0 = performance.now();
          const answer = await fetch(virtuoso.sparqlUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' },
            body: new URLSearchParams({ query: r.text ?? '' }),
          });
          await answer.arrayBuffer();
          times.push(+(performance.now() - t0).toFixed(1));
        }
        process.stdout.write(`${JSON.stringify({ replay: times, text: (r.text ?? '').slice(0, 4000) })}\n`);
      }
    } finally {
      await node.stop();
    }
  } finally {
    await started?.stop();
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === 'views') {
    const [dataDir, scale, count = '20'] = process.argv.slice(3);
    if (dataDir === undefined) throw new Error('usage: node dist/bench/external-profile.js views <dataDir> <scale> [count]');
    return views(dataDir, Number(scale), Number(count));
  }
  const seconds = Number(process.argv[2] ?? 5);
  const work = process.argv[3] ?? mkdtempSync(join(tmpdir(), 'dataspace-ext-profile-'));
  const virtuoso = await Virtuoso.start({ buffers: Number(process.env.BENCH_VIRTUOSO_BUFFERS ?? 100_000) });
  const port = await freePort();
  const logFile = join(work, 'node.log');
  const node = await startServer({
    name: 'node',
    script: NODE_MAIN,
    port,
    logFile,
    readyPath: '/authentication/login',
    nodeArgs: process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
    env: {
      NODE_ENV: 'production',
      DATASPACE_SEED: BENCH_SEED,
      DATASPACE_DATA_DIR: join(work, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATASPACE_BASE_URL: `http://127.0.0.1:${port}`,
      DATASPACE_LOG: process.env.PROFILE_LOG ?? 'debug',
      ...virtuoso.env(),
    },
  });
  try {
    const res = await fetch(`${node.url}/authentication/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: BENCH_USERS.forwarder.email, password: BENCH_USERS.forwarder.password }),
    });
    const token = /access_token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    if (!token) throw new Error(`login: ${res.status}`);
    let counter = 0;
    const next = () => ({
      path: '/supply-chain/data-space/inbox',
      body: JSON.stringify(activity('Create', BENCH_USERS.forwarder.org, consignment(counter++, RUN.writes))),
    });
    for (const connections of (process.env.PROFILE_CONNECTIONS ?? '1,16').split(',').map(Number)) {
      const logFrom = statSync(logFile).size;
      const [nodeCpu, virtuosoCpu] = [node.cpuMs(), cpuOf(virtuoso.pid)];
      const result = await runLoad({
        url: node.url,
        connections,
        seconds,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        next,
        checkTaskErrors: true,
      });
      await new Promise((ok) => setTimeout(ok, 300));
      const n = result.count + result.non2xx;
      const requests = requestsSince(logFile, logFrom);
      const updates = requests.filter((r) => r.kind === 'update');
      const queries = requests.filter((r) => r.kind === 'query');
      process.stdout.write(
        `${JSON.stringify({
          connections,
          perSecond: Math.round(result.perSecond),
          p50: result.p50,
          p99: result.p99,
          non2xx: result.non2xx,
          taskErrors: result.taskErrors,
          creates: n,
          nodeCpuMsPerCreate: +((node.cpuMs() - nodeCpu) / n).toFixed(2),
          virtuosoCpuMsPerCreate: +((cpuOf(virtuoso.pid) - virtuosoCpu) / n).toFixed(2),
          updates: updates.length,
          createsPerUpdate: +(n / updates.length).toFixed(1),
          updateMsP50: pct(
            updates.map((u) => u.ms!),
            0.5,
          ),
          updateMsP99: pct(
            updates.map((u) => u.ms!),
            0.99,
          ),
          updateChars: Math.round(updates.reduce((s, u) => s + (u.text?.length ?? 0), 0) / Math.max(1, updates.length)),
          queries: queries.length,
          queryMsP50: pct(
            queries.map((u) => u.ms!),
            0.5,
          ),
          queryTexts: [...new Set(queries.map((q) => (q.text ?? '').replace(/\s+/g, ' ').slice(0, 120)))].slice(0, 5),
          load: loadavg()
            .map((l) => l.toFixed(2))
            .join('/'),
        })}\n`,
      );
    }
  } finally {
    await node.stop();
    await virtuoso.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
