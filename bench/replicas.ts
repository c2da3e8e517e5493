/**
 * Replica mode (docs/replicas.md) on this machine: PostgreSQL (a cluster of its own), Virtuoso and node
 * processes as `npm start` runs them, on 127.0.0.1, each node process under a CPU quota of
 * BENCH_REPLICA_CPU_PERCENT of one core (50 by default; a cgroup of its own, bench/cpu-quota.ts), so
 * that this machine shows what one small machine per replica gives. In one run: Create/s and view/s of
 * a single node on the same Virtuoso, then of a set of 1, 2 and 3 replicas behind HAProxy (every
 * replica serves: reads where they land, writes forwarded to the writer); the takeover after the
 * writer is killed with SIGKILL; each replica's RSS.
 *
 *   npm run bench:replicas            (BENCH_REPLICA_SECONDS per load run, 10 by default;
 *                                     BENCH_REPLICA_IDS=1: Creates with activity ids)
 */
import { join } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import { HaProxy } from '../test/helpers/haproxy.js';
import { NodeProcess } from '../test/helpers/node-process.js';
import { Postgres } from '../test/helpers/postgres.js';
import { scratchDir } from '../test/helpers/scratch-dirs.js';
import { Virtuoso } from '../test/helpers/virtuoso.js';
import { cpuQuota, removeQuotas, throttledMs, type QuotaKind } from './cpu-quota.js';
import { runLoad, type LoadResult } from './load.js';
import { cpuOf, rssOf } from './processes.js';
import { activity, consignment, globalIdFor } from './payloads.js';
import { loadRow, ratio, renderTable, type Row } from './table.js';
import { BENCH_SEED, BENCH_USERS, login } from './users.js';

const SECONDS = Number(process.env.BENCH_REPLICA_SECONDS ?? 10);
/** Unmeasured load before each measured pair of runs (warm). */
const WARM_SECONDS = 4;
const PERCENT = Number(process.env.BENCH_REPLICA_CPU_PERCENT ?? 50);
const INBOX = '/supply-chain/data-space/inbox';
/** Consignments the views cycle over (each read once uncached, then from the replica's caches). */
const VIEWED = 200;
const view = (n: number, run: number) => `/supply-chain/data-space/consignments/${encodeURIComponent(globalIdFor(n, run))}`;
const loads = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * What each of `pids` spent over a load run of `count` requests: its CPU ms per request, and the share
 * of the run its quota held it back (cpu-quota.ts): near 0 %, the quota did not limit it, the machine did.
 */
function spent(pids: readonly number[]): (count: number, seconds: number) => string {
  const cpu = pids.map((pid) => cpuOf(pid));
  const held = pids.map((pid) => throttledMs(pid));
  return (count, seconds) =>
    pids
      .map((pid, i) => {
        const share = ((throttledMs(pid) - held[i]!) / (seconds * 10)).toFixed(0);
        return `${((cpuOf(pid) - cpu[i]!) / Math.max(1, count)).toFixed(2)} ms (${share} %)`;
      })
      .join(' / ');
}

/** Creates at 16 connections for SECONDS. */
async function creates(url: string, run: number, server: number, seconds = SECONDS): Promise<{ result: LoadResult; serverMs: number }> {
  const token = await login(url, BENCH_USERS.forwarder);
  let n = 0;
  const before = cpuOf(server);
  const result = await runLoad({
    url,
    connections: 16,
    seconds,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    next: () => {
      const body = activity('Create', BENCH_USERS.forwarder.org, consignment(n, run));
      // With BENCH_REPLICA_IDS=1 each Create carries an activity id (spec 2.1), as a client that retries sends it.
      if (process.env.BENCH_REPLICA_IDS === '1') body.id = `urn:uuid:bench-replicas-${run}-${n}`;
      n++;
      return { path: INBOX, body: JSON.stringify(body) };
    },
    checkTaskErrors: true,
  });
  return { result, serverMs: (cpuOf(server) - before) / result.count };
}

/** Views of the first VIEWED consignments of `run` at 16 connections: the read side's throughput. */
async function views(url: string, run: number, created: number, seconds = SECONDS): Promise<LoadResult> {
  const token = await login(url, BENCH_USERS.border);
  let n = 0;
  return runLoad({
    url,
    connections: 16,
    seconds,
    method: 'GET',
    headers: { authorization: `Bearer ${token}` },
    next: () => ({ path: view(n++ % Math.min(VIEWED, created), run) }),
  });
}

/**
 * Waits until every process of `pids` used under 5 % of a core over a second (at most 60 s): what
 * a start or the load run before left running in the background (a first writer fills the change
 * feed's index and the ledger from the store after the catalog) is not counted in the next run.
 */
async function quiet(pids: readonly number[]): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const before = pids.map((pid) => cpuOf(pid));
    await new Promise((ok) => setTimeout(ok, 1000));
    if (pids.every((pid, i) => cpuOf(pid) - before[i]! < 50)) return;
  }
}

/**
 * Creates and views for WARM_SECONDS each, not measured: a process's first few hundred Creates cost
 * it about 1.6 times its later ones (12.4 against 7.7 ms of CPU on a replica's writer, the code's
 * first runs), and a replica added to a set has served nothing yet.
 */
async function warm(url: string, run: number, server: number): Promise<void> {
  const made = await creates(url, run, server, WARM_SECONDS);
  await views(url, run, made.result.count, WARM_SECONDS);
}

/** Waits until a list answers 200: the catalog in PostgreSQL is level with the store. */
async function listed(url: string): Promise<void> {
  const token = await login(url, BENCH_USERS.border);
  for (;;) {
    const res = await fetch(`${url}/supply-chain/data-space/consignments?limit=1`, { headers: { authorization: `Bearer ${token}` } });
    await res.body?.cancel();
    if (res.status === 200) return;
    await new Promise((ok) => setTimeout(ok, 500));
  }
}

async function main(): Promise<void> {
  const [postgres, virtuoso] = await Promise.all([Postgres.start(), Virtuoso.start({ buffers: 100_000 })]);
  const databaseUrl = await postgres.database('dataspace');
  const rows: Row[] = [];
  const nodes: NodeProcess[] = [];
  const quotas = new Set<QuotaKind>();
  const start = (env: Record<string, string>) => async () => {
    const node = await NodeProcess.start({
      ...virtuoso.env(),
      DATASPACE_DATA_DIR: join(scratchDir('dataspace-bench-replica-'), 'data'),
      DATASPACE_SEED: BENCH_SEED,
      DATASPACE_LOG: 'warn',
      ...env,
    });
    quotas.add(cpuQuota(node.pid, PERCENT));
    nodes.push(node);
    return node;
  };
  const startSingle = start({});
  const startReplica = start({ DATABASE_URL: databaseUrl });
  const serverRow = (label: string, ms: number): Row => ({
    measure: `… Virtuoso CPU ms per Create, ${label}`,
    stored: '',
    concurrency: '',
    value: ms.toFixed(2),
  });
  const nodeRow = (label: string, value: string): Row => ({
    measure: `… node CPU ms per request (quota held back), ${label}`,
    stored: '',
    concurrency: '',
    value,
  });
  try {
    // A single node on the same Virtuoso: what the set is compared with.
    const single = await startSingle();
    await single.until(200);
    await warm(single.url, 20, virtuoso.pid);
    await quiet([single.pid]);
    let node = spent([single.pid]);
    const alone = await creates(single.url, 30, virtuoso.pid);
    rows.push(loadRow('Create, single node (direct)', '', 16, alone.result));
    rows.push(serverRow('single node', alone.serverMs));
    rows.push(nodeRow('single node', node(alone.result.count, SECONDS)));
    await quiet([single.pid]);
    node = spent([single.pid]);
    const aloneViews = await views(single.url, 30, alone.result.count);
    rows.push(loadRow('View, single node (direct)', '', 16, aloneViews));
    rows.push(nodeRow('single node', node(aloneViews.count, SECONDS)));
    await single.kill('SIGTERM');

    const replicas: NodeProcess[] = [];
    const byCount: { creates: LoadResult; views: LoadResult }[] = [];
    let proxy: HaProxy | undefined;
    for (let count = 1; count <= 3; count++) {
      const replica = await startReplica();
      replicas.push(replica);
      await replica.untilRole(count === 1 ? 'writer' : 'follower', 120_000);
      // The first replica of a set fills the catalog from what the single node stored: not measured.
      if (count === 1) await listed(replica.url);
      await proxy?.stop();
      // Checks every second: on a loaded machine a check every 200 ms times out and takes a busy replica out.
      proxy = await HaProxy.start(
        replicas.map((r) => r.port),
        1000,
      );
      await proxy.settled();
      await warm(proxy.url, 20 + count, virtuoso.pid);
      await quiet(replicas.map((r) => r.pid));
      const run = 30 + count;
      const label = `${count} replica${count > 1 ? 's' : ''}`;
      const each = `${label}, writer${count > 1 ? ' / followers' : ''}`;
      node = spent(replicas.map((r) => r.pid));
      const made = await creates(proxy.url, run, virtuoso.pid);
      rows.push(loadRow(`Create, ${label} (HAProxy)`, '', 16, made.result));
      rows.push(serverRow(label, made.serverMs));
      rows.push(nodeRow(each, node(made.result.count, SECONDS)));
      await quiet(replicas.map((r) => r.pid));
      node = spent(replicas.map((r) => r.pid));
      const read = await views(proxy.url, run, made.result.count);
      rows.push(loadRow(`View, ${label} (HAProxy)`, '', 16, read));
      rows.push(nodeRow(each, node(read.count, SECONDS)));
      byCount.push({ creates: made.result, views: read });
    }
    const [one] = byCount;
    for (const [i, { views: read }] of byCount.entries())
      if (i > 0)
        rows.push({
          measure: `View/s, ${i + 1} replicas ÷ 1 (target ≥ ${(1 + 0.8 * i).toFixed(1)}×)`,
          stored: '',
          concurrency: '',
          value: ratio(read.perSecond, one!.views.perSecond),
        });
    for (const [i, { creates: made }] of byCount.entries())
      rows.push({
        measure: `Create/s, ${i + 1} replica${i > 0 ? 's' : ''} ÷ single node (target ≥ 0.8×)`,
        stored: '',
        concurrency: '',
        value: ratio(made.perSecond, alone.result.perSecond),
      });
    rows.push({
      measure: 'RSS, writer / followers',
      stored: '',
      concurrency: '',
      value: `${replicas.map((r) => rssOf(r.pid).toFixed(0)).join(' / ')} MB`,
    });

    // The takeover: from the kill to the first Create answered through the proxy, reads answering all along.
    const token = await login(proxy!.url, BENCH_USERS.forwarder);
    const killed = performance.now();
    await replicas[0]!.kill('SIGKILL');
    for (let n = 0; ; n++) {
      const res = await fetch(`${proxy!.url}${INBOX}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(activity('Create', BENCH_USERS.forwarder.org, consignment(n, 40))),
      }).catch(() => undefined);
      await res?.body?.cancel();
      if (res?.status === 201) break;
      await new Promise((ok) => setTimeout(ok, 20));
    }
    rows.push({
      measure: 'Takeover after SIGKILL, to a Create answered (takeover wait 2 s)',
      stored: '',
      concurrency: '',
      value: `${((performance.now() - killed) / 1000).toFixed(2)} s`,
    });
    await proxy!.stop();
  } finally {
    await Promise.all(nodes.map((r) => r.kill('SIGTERM')));
    await Promise.all([virtuoso.stop(), postgres.stop()]);
    removeQuotas();
  }
  console.log(
    `\nReplicas on PostgreSQL and Virtuoso, ${availableParallelism()} cores, load average ${loads()}; ` +
      `each node process under ${PERCENT} % of a core (${[...quotas].join(', ')})\n`,
  );
  console.log(renderTable(rows));
}

void main();
