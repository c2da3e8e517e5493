/**
 * Create alone, the node and the ceiling in one run, interleaved (node, ceiling, node, ceiling, …)
 * so a shared machine's load falls on both alike: the `npm run bench` Create rows in about a minute,
 * for profiling and for before/after figures of the inbox's write path.
 *
 * Usage: node dist/bench/create.js [seconds=3] [rounds=3] [connections=16]
 * CREATE_NODES=<dist>,<dist> compares builds (e.g. an older commit's dist) in the same rounds.
 * CREATE_WARMUP_SECONDS (3) of load before the measured runs.
 * CREATE_CPU_PROF=<dir> writes V8 CPU profiles of the node's threads (main and reader threads) there;
 * summarise one with `node dist/bench/profile-summary.js <file>`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot } from '../src/core/project-paths.js';
import { median, runLoad, type LoadResult } from './load.js';
import { activity, consignment, RUN } from './payloads.js';
import { freePort, startServer, type ServerProcess } from './processes.js';
import { BENCH_SEED, BENCH_USERS } from './users.js';

const [secondsText, roundsText, connectionsText] = process.argv.slice(2);
const SECONDS = Number(secondsText ?? 3);
const ROUNDS = Number(roundsText ?? 3);
const CONNECTIONS = Number(connectionsText ?? 16);
const WARMUP_SECONDS = Number(process.env.CREATE_WARMUP_SECONDS ?? 3);
const INBOX = '/supply-chain/data-space/inbox';
const dist = resolve(projectRoot, 'dist');
const work = mkdtempSync(join(tmpdir(), 'dataspace-create-'));
const say = (text: string) => process.stderr.write(`[create ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

/** CPU ms per thread of a process (every thread of /proc/<pid>/task), keyed by thread id and name. */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(`${tid} ${name}`, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

/** Threads' CPU per request over a run, the busiest first, e.g. "23559 node 4.1, 23570 node 2.3". */
function threadShares(before: Map<string, number>, after: Map<string, number>, requests: number): string {
  return [...after]
    .map(([key, ms]) => [key, (ms - (before.get(key) ?? 0)) / requests] as const)
    .filter(([, ms]) => ms >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([key, ms]) => `${key} ${ms.toFixed(2)}`)
    .join(', ');
}

async function measured(server: ServerProcess, spec: Parameters<typeof runLoad>[0]): Promise<LoadResult> {
  const before = server.cpuMs();
  const threadsBefore = threadCpu(server.pid);
  const result = await runLoad(spec);
  // Requests autocannon left in flight still cost CPU: wait until the server answers again.
  await fetch(`${server.url}/bench-settle`)
    .then((r) => r.arrayBuffer())
    .catch(() => undefined);
  result.cpuMsPerRequest = (server.cpuMs() - before) / Math.max(1, result.count + result.non2xx);
  say(
    `${server.name} CPU ms per request by thread: ${threadShares(threadsBefore, threadCpu(server.pid), Math.max(1, result.count + result.non2xx))}`,
  );
  return result;
}

interface Target {
  label: string;
  server: ServerProcess;
  spec: Parameters<typeof runLoad>[0];
  runs: LoadResult[];
}

async function startNode(label: string, distDir: string, profile: string | undefined): Promise<Target> {
  const port = await freePort();
  const server = await startServer({
    name: label,
    script: join(distDir, 'bundle', 'main.js'),
    port,
    logFile: join(work, `${label.replace(/\W/g, '_')}.log`),
    readyPath: '/authentication/login',
    nodeArgs: profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [],
    env: {
      NODE_ENV: 'production',
      DATASPACE_SEED: BENCH_SEED,
      DATASPACE_DATA_DIR: join(work, label.replace(/\W/g, '_')),
      DATASPACE_FSYNC: 'on',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATASPACE_BASE_URL: `http://127.0.0.1:${port}`,
    },
  });
  const login = await fetch(`${server.url}/authentication/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_USERS.forwarder),
  });
  const token = /access_token=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
  if (!token) throw new Error(`login: ${login.status}`);
  let n = 0;
  const next = () => ({ path: INBOX, body: JSON.stringify(activity('Create', BENCH_USERS.forwarder.org, consignment(n++, RUN.writes))) });
  return {
    label,
    server,
    runs: [],
    spec: {
      url: server.url,
      connections: CONNECTIONS,
      seconds: SECONDS,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      next,
      checkTaskErrors: true,
    },
  };
}

async function main(): Promise<void> {
  const profile = process.env.CREATE_CPU_PROF;
  // CREATE_NODES=<dist dir>,<dist dir>: other builds of the node (e.g. an older commit's), measured in
  // the same interleaved rounds, to find which change moved the CPU per Create.
  const builds = process.env.CREATE_NODES ? process.env.CREATE_NODES.split(',') : [dist];
  const targets: Target[] = [];
  try {
    for (const build of builds) targets.push(await startNode(builds.length === 1 ? 'node' : build, build, profile));
    const ceilingPort = await freePort();
    const ceiling = await startServer({
      name: 'ceiling',
      script: join(dist, 'bench', 'ceiling-server.js'),
      args: [String(ceilingPort), join(work, 'ceiling')],
      port: ceilingPort,
      logFile: join(work, 'ceiling.log'),
    });
    let c = 0;
    const nextCeiling = () => ({
      path: '/inbox',
      body: JSON.stringify(activity('Create', BENCH_USERS.forwarder.org, consignment(c++, RUN.ceiling))),
    });
    targets.push({
      label: 'ceiling',
      server: ceiling,
      runs: [],
      spec: {
        url: ceiling.url,
        connections: CONNECTIONS,
        seconds: SECONDS,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        next: nextCeiling,
      },
    });
    // Warm-up of each, not counted: in the first seconds V8's compiler threads take several ms per
    // request (seen per thread at c=1), which a short warm-up leaves in the first measured run.
    for (const target of targets) await runLoad({ ...target.spec, seconds: WARMUP_SECONDS });
    for (let i = 0; i < ROUNDS; i++) {
      for (const target of targets) {
        const r = await measured(target.server, target.spec);
        target.runs.push(r);
        say(
          `round ${i + 1}: ${target.label} ${Math.round(r.perSecond)}/s ${r.cpuMsPerRequest!.toFixed(2)} ms CPU (non-2xx ${r.non2xx}, failed tasks ${r.taskErrors})`,
        );
      }
    }
    const m = (runs: LoadResult[], f: (r: LoadResult) => number) => median(runs.map(f));
    const ceilingTarget = targets.at(-1)!;
    const lines = [
      `Create c=${CONNECTIONS}, medians of ${ROUNDS} interleaved ${SECONDS} s runs; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join('/')}`,
    ];
    for (const t of targets) {
      const rate = m(t.runs, (r) => r.perSecond);
      const cpu = m(t.runs, (r) => r.cpuMsPerRequest!);
      const versus =
        t === ceilingTarget
          ? ''
          : `  ÷ ceiling ${(rate / m(ceilingTarget.runs, (r) => r.perSecond)).toFixed(2)}× (CPU ${(cpu / m(ceilingTarget.runs, (r) => r.cpuMsPerRequest!)).toFixed(2)}×)`;
      lines.push(`${t.label}: ${Math.round(rate)}/s  p50 ${m(t.runs, (r) => r.p50).toFixed(2)} ms  ${cpu.toFixed(2)} ms CPU/req${versus}`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const target of targets) await target.server.stop();
    if (process.env.BENCH_KEEP !== '1') rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
