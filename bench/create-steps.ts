/**
 * `npm run bench:create-steps [creates=1500] [stores=embedded,virtuoso]`: where a Create's CPU goes, per
 * step of the inbox (profile-steps.ts), on the embedded store and on Virtuoso (test/helpers/virtuoso.ts,
 * a temporary database). For each store: the unbundled node (dist/src/main.js, so a profile's frames
 * name source files) under `--cpu-prof`, fsync on, a warm-up of Creates at 16 connections, then
 * `creates` measured Creates at 16 connections. Prints a markdown table of CPU ms per Create by step,
 * scaled to the process's measured CPU per Create (the profiler's own cost taken out pro rata), and
 * Virtuoso's CPU per Create beside it. STEPS_NODE_DIST=<dist> profiles another build's node.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot } from '../src/core/project-paths.js';
import { Virtuoso, virtuosoMissing } from '../test/helpers/virtuoso.js';
import { CpuClock } from './cpu-clock.js';
import { runLoad, type LoadSpec } from './load.js';
import { activity, consignment, RUN } from './payloads.js';
import { cpuOf, freePort, startServer } from './processes.js';
import { STEP_ORDER, stepsIn } from './profile-steps.js';
import { BENCH_SEED, BENCH_USERS, login } from './users.js';

const CREATES = Number(process.argv[2] ?? 1500);
const STORES = (process.argv[3] ?? 'embedded,virtuoso').split(',');
const WARMUP = Math.min(1000, CREATES);
const INBOX = '/supply-chain/data-space/inbox';
const dist = process.env.STEPS_NODE_DIST ?? resolve(projectRoot, 'dist');
const say = (text: string) => process.stderr.write(`[create-steps ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

interface Column {
  store: string;
  perCreate: number;
  rate: number;
  steps: Map<string, number>;
  sampled: number;
  serverCpu?: number;
}

const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

async function profileStore(work: string, store: string, env: Record<string, string>, serverPid?: number): Promise<Column> {
  const profiles = join(work, `profiles-${store}`);
  mkdirSync(profiles);
  const port = await freePort();
  const node = await startServer({
    name: store,
    script: join(dist, 'src', 'main.js'),
    port,
    logFile: join(work, `${store}.log`),
    readyPath: '/authentication/login',
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profiles}`],
    env: {
      NODE_ENV: 'production',
      DATASPACE_SEED: BENCH_SEED,
      DATASPACE_DATA_DIR: join(work, store),
      DATASPACE_FSYNC: 'on',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATASPACE_BASE_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
  });
  let window: [number, number];
  let perCreate: number;
  let rate: number;
  let serverCpu: number | undefined;
  try {
    const token = await login(node.url, BENCH_USERS.forwarder);
    let n = 0;
    const spec = (amount: number): LoadSpec => ({
      url: node.url,
      connections: 16,
      seconds: 0,
      amount,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      next: () => ({ path: INBOX, body: JSON.stringify(activity('Create', BENCH_USERS.forwarder.org, consignment(n++, RUN.writes))) }),
      checkTaskErrors: true,
    });
    await runLoad(spec(WARMUP));
    const clock = new CpuClock(node.pid);
    const serverBefore = serverPid === undefined ? 0 : cpuOf(serverPid);
    const from = monotonicUs();
    const result = await runLoad(spec(CREATES));
    window = [from, monotonicUs()];
    perCreate = clock.elapsedMs() / result.count;
    rate = result.perSecond;
    if (serverPid !== undefined) serverCpu = (cpuOf(serverPid) - serverBefore) / result.count;
    if (result.non2xx + result.taskErrors > 0) throw new Error(`${store}: ${result.non2xx} non-2xx, ${result.taskErrors} failed tasks`);
    say(`${store}: ${Math.round(rate)} Creates/s, ${perCreate.toFixed(2)} ms node CPU a Create (profiled)`);
  } finally {
    // The profiles are written as the threads end.
    await node.stop();
  }
  const steps = stepsIn(profiles, window[0], window[1]);
  const sampled = [...steps].filter(([step]) => !step.startsWith(' ')).reduce((a, [, ms]) => a + ms, 0);
  return { store, perCreate, rate, steps, sampled, serverCpu };
}

function table(columns: Column[]): string {
  const head = `| Step (CPU ms a Create, c=16) | ${columns.map((c) => c.store).join(' | ')} |`;
  const lines = [head, `|---|${columns.map(() => '---:|').join('')}`];
  for (const step of STEP_ORDER) {
    const cells = columns.map((c) => {
      const ms = ((c.steps.get(step) ?? 0) / c.sampled) * c.perCreate;
      return `${ms.toFixed(3)} (${(((c.steps.get(step) ?? 0) / c.sampled) * 100).toFixed(0)} %)`;
    });
    lines.push(`| ${step} | ${cells.join(' | ')} |`);
  }
  lines.push(`| **node, all threads** | ${columns.map((c) => `**${c.perCreate.toFixed(2)}**`).join(' | ')} |`);
  lines.push(
    `| SPARQL server (Virtuoso) | ${columns.map((c) => (c.serverCpu === undefined ? '–' : c.serverCpu.toFixed(2))).join(' | ')} |`,
  );
  lines.push(`| Creates/s while profiled | ${columns.map((c) => Math.round(c.rate)).join(' | ')} |`);
  // STEPS_DETAIL=<step>: that step's time by project function and leaf, the largest first.
  for (const c of columns) {
    const detail = [...c.steps].filter(([step]) => step.startsWith(' ')).sort((a, b) => b[1] - a[1]);
    for (const [key, ms] of detail.slice(0, 20))
      lines.push(`${c.store} ${(ms / c.sampled) * c.perCreate >= 0 ? ((ms / c.sampled) * c.perCreate).toFixed(3) : ''} ms ${key}`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'dataspace-create-steps-'));
  const columns: Column[] = [];
  try {
    if (STORES.includes('embedded')) columns.push(await profileStore(work, 'embedded', {}));
    if (STORES.includes('virtuoso')) {
      const missing = virtuosoMissing();
      if (missing) say(`Virtuoso left out: ${missing}`);
      else {
        const virtuoso = await Virtuoso.start({ buffers: Number(process.env.BENCH_VIRTUOSO_BUFFERS ?? 340_000) });
        try {
          columns.push(await profileStore(work, 'Virtuoso', virtuoso.env(), virtuoso.pid));
        } finally {
          await virtuoso.stop();
        }
      }
    }
    process.stdout.write(
      `${CREATES} Creates after ${WARMUP} of warm-up; ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join('/')}\n\n${table(columns)}\n`,
    );
  } finally {
    if (process.env.BENCH_KEEP !== '1') rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
