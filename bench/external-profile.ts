/**
 * Where a Create's time goes on the external store: node CPU, Virtuoso CPU and the SPARQL requests the
 * node sent (from its debug log: count, kind, time to the server's answer), for Create runs at
 * c=1 and c=16 on a fresh Virtuoso. Run: node dist/bench/external-profile.js [seconds] [workDir]
 * Prints one JSON line per run. Needs virtuoso-t (test/helpers/virtuoso.ts).
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot } from '../src/project-paths.js';
import { Virtuoso } from '../test/helpers/virtuoso.js';
import { runLoad } from './load.js';
import { activity, consignment, RUN } from './payloads.js';
import { freePort, startServer } from './processes.js';
import { BENCH_SEED, BENCH_USERS } from './users.js';

const TICK_MS = 10;
const cpuOf = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
};

interface RequestLine { msg?: string; ms?: number; kind?: string; text?: string }

/** The sparql request lines the node logged since `from` bytes into its log. */
function requestsSince(logFile: string, from: number): RequestLine[] {
  const text = readFileSync(logFile, 'utf8').slice(from);
  const out: RequestLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.includes('sparql request')) continue;
    try { out.push(JSON.parse(line) as RequestLine); } catch { /* not a JSON line */ }
  }
  return out;
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 5);
  const work = process.argv[3] ?? mkdtempSync(join(tmpdir(), 'dataspace-ext-profile-'));
  const virtuoso = await Virtuoso.start({ buffers: Number(process.env.BENCH_VIRTUOSO_BUFFERS ?? 100_000) });
  const port = await freePort();
  const logFile = join(work, 'node.log');
  const node = await startServer({
    name: 'node', script: join(resolve(projectRoot, 'dist'), 'src', 'main.js'), port, logFile, readyPath: '/authentication/login',
    nodeArgs: process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
    env: {
      NODE_ENV: 'production', DATASPACE_SEED: BENCH_SEED, DATASPACE_DATA_DIR: join(work, 'data'), PORT: String(port), HOST: '127.0.0.1',
      DATASPACE_BASE_URL: `http://127.0.0.1:${port}`, DATASPACE_LOG: process.env.PROFILE_LOG ?? 'debug', ...virtuoso.env(),
    },
  });
  try {
    const res = await fetch(`${node.url}/authentication/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: BENCH_USERS.forwarder.email, password: BENCH_USERS.forwarder.password }),
    });
    const token = /access_token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    if (!token) throw new Error(`login: ${res.status}`);
    let counter = 0;
    const next = () => ({ path: '/supply-chain/data-space/inbox', body: JSON.stringify(activity('Create', BENCH_USERS.forwarder.org, consignment(counter++, RUN.writes))) });
    for (const connections of (process.env.PROFILE_CONNECTIONS ?? '1,16').split(',').map(Number)) {
      const logFrom = statSync(logFile).size;
      const [nodeCpu, virtuosoCpu] = [node.cpuMs(), cpuOf(virtuoso.pid)];
      const result = await runLoad({ url: node.url, connections, seconds, method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, next, checkTaskErrors: true });
      await new Promise((ok) => setTimeout(ok, 300));
      const n = result.count + result.non2xx;
      const requests = requestsSince(logFile, logFrom);
      const updates = requests.filter((r) => r.kind === 'update');
      const queries = requests.filter((r) => r.kind === 'query');
      process.stdout.write(`${JSON.stringify({
        connections, perSecond: Math.round(result.perSecond), p50: result.p50, p99: result.p99, non2xx: result.non2xx, taskErrors: result.taskErrors, creates: n,
        nodeCpuMsPerCreate: +((node.cpuMs() - nodeCpu) / n).toFixed(2), virtuosoCpuMsPerCreate: +((cpuOf(virtuoso.pid) - virtuosoCpu) / n).toFixed(2),
        updates: updates.length, createsPerUpdate: +(n / updates.length).toFixed(1), updateMsP50: pct(updates.map((u) => u.ms!), 0.5), updateMsP99: pct(updates.map((u) => u.ms!), 0.99),
        updateChars: Math.round(updates.reduce((s, u) => s + (u.text?.length ?? 0), 0) / Math.max(1, updates.length)),
        queries: queries.length, queryMsP50: pct(queries.map((u) => u.ms!), 0.5),
        queryTexts: [...new Set(queries.map((q) => (q.text ?? '').replace(/\s+/g, ' ').slice(0, 120)))].slice(0, 5),
        load: loadavg().map((l) => l.toFixed(2)).join('/'),
      })}\n`);
    }
  } finally {
    await node.stop();
    await virtuoso.stop();
  }
}

main().catch((error: unknown) => { process.stderr.write(`${(error as Error).stack}\n`); process.exit(1); });
