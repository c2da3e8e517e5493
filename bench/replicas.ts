/**
 * Replica mode (docs/replicas.md) on this machine: PostgreSQL (a cluster of its own), Virtuoso and node
 * processes as `npm start` runs them, on 127.0.0.1. In one run: Create/s and first-view p99 with one
 * replica (reached directly) and with two behind HAProxy (a writer and a standby); the takeover after
 * the writer is killed with SIGKILL; a restart; each replica's RSS.
 *
 *   npm run bench:replicas            (BENCH_REPLICA_SECONDS per load run, 10 by default)
 */
import { join } from 'node:path';
import { HaProxy } from '../test/helpers/haproxy.js';
import { NodeProcess } from '../test/helpers/node-process.js';
import { Postgres } from '../test/helpers/postgres.js';
import { scratchDir } from '../test/helpers/scratch-dirs.js';
import { Virtuoso } from '../test/helpers/virtuoso.js';
import { runLoad, type LoadResult } from './load.js';
import { cpuOf, rssOf } from './processes.js';
import { activity, consignment, globalIdFor } from './payloads.js';
import { loadRow, renderTable, type Row } from './table.js';
import { BENCH_SEED, BENCH_USERS, login } from './users.js';
import { availableParallelism, loadavg } from 'node:os';

const SECONDS = Number(process.env.BENCH_REPLICA_SECONDS ?? 10);
const INBOX = '/supply-chain/data-space/inbox';
const view = (n: number, run: number) => `/supply-chain/data-space/consignments/${encodeURIComponent(globalIdFor(n, run))}`;

/** Creates at 16 connections for SECONDS; `cpu` is the node's CPU ms per Create, and the server's. */
async function creates(
  url: string,
  run: number,
  node: number,
  server: number,
): Promise<{ result: LoadResult; created: number; serverMs: number }> {
  const token = await login(url, BENCH_USERS.forwarder);
  let n = 0;
  const before = [cpuOf(node), cpuOf(server)];
  const result = await runLoad({
    url,
    connections: 16,
    seconds: SECONDS,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    next: () => ({ path: INBOX, body: JSON.stringify(activity('Create', BENCH_USERS.forwarder.org, consignment(n++, run))) }),
    checkTaskErrors: true,
  });
  result.cpuMsPerRequest = (cpuOf(node) - before[0]!) / result.count;
  return { result, created: n, serverMs: (cpuOf(server) - before[1]!) / result.count };
}

/** Views of consignments created in `run` and never read before, one connection. */
async function firstViews(url: string, run: number, created: number): Promise<LoadResult> {
  const token = await login(url, BENCH_USERS.border);
  let n = 0;
  return runLoad({
    url,
    connections: 1,
    seconds: Math.min(SECONDS, 5),
    method: 'GET',
    headers: { authorization: `Bearer ${token}` },
    next: () => ({ path: view(n++ % created, run) }),
  });
}

const serverRow = (ms: number): Row => ({ measure: '… Virtuoso CPU ms per Create', stored: '', concurrency: '', value: ms.toFixed(2) });

async function main(): Promise<void> {
  const [postgres, virtuoso] = await Promise.all([Postgres.start(), Virtuoso.start({ buffers: 100_000 })]);
  const databaseUrl = await postgres.database('dataspace');
  const rows: Row[] = [];
  const replicas: NodeProcess[] = [];
  const start = async () => {
    const replica = await NodeProcess.start({
      ...virtuoso.env(),
      DATABASE_URL: databaseUrl,
      DATASPACE_DATA_DIR: join(scratchDir('dataspace-bench-replica-'), 'data'),
      DATASPACE_SEED: BENCH_SEED,
      DATASPACE_LOG: 'warn',
    });
    replicas.push(replica);
    return replica;
  };
  let stored = 0;
  try {
    const first = await start();
    await first.until(200);
    const one = await creates(first.url, 21, first.pid, virtuoso.pid);
    stored += one.result.count;
    rows.push(loadRow('Create, one replica (direct)', `0–${stored}`, 16, one.result));
    rows.push(serverRow(one.serverMs));
    rows.push(loadRow('First view, one replica (direct)', String(stored), 1, await firstViews(first.url, 21, one.result.count)));

    const second = await start();
    await second.until(503);
    const proxy = await HaProxy.start([first.port, second.port]);
    await proxy.settled();
    const two = await creates(proxy.url, 22, first.pid, virtuoso.pid);
    rows.push(loadRow('Create, two replicas (HAProxy)', `${stored}–${stored + two.result.count}`, 16, two.result));
    rows.push(serverRow(two.serverMs));
    stored += two.result.count;
    rows.push(loadRow('First view, two replicas (HAProxy)', String(stored), 1, await firstViews(proxy.url, 22, two.result.count)));
    rows.push({
      measure: 'RSS, writer / standby',
      stored: String(stored),
      concurrency: '',
      value: `${rssOf(first.pid).toFixed(0)} / ${rssOf(second.pid).toFixed(0)} MB`,
    });

    // The takeover: from the kill to the first list page answered through the proxy.
    const token = await login(proxy.url, BENCH_USERS.border);
    const killed = performance.now();
    await first.kill('SIGKILL');
    for (;;) {
      const res = await fetch(`${proxy.url}/supply-chain/data-space/consignments?limit=1`, {
        headers: { authorization: `Bearer ${token}` },
      }).catch(() => undefined);
      await res?.body?.cancel();
      if (res?.status === 200) break;
      await new Promise((ok) => setTimeout(ok, 20));
    }
    rows.push({
      measure: 'Takeover after SIGKILL, to a list answered (takeover wait 2 s)',
      stored: String(stored),
      concurrency: '',
      value: `${((performance.now() - killed) / 1000).toFixed(2)} s`,
    });

    // A restart: the standby, stopped and started again, to ready (it reads no data: the server keeps it).
    await second.kill('SIGTERM');
    const restarted = performance.now();
    const again = await start();
    await again.until(200);
    rows.push({
      measure: 'Restart of a replica, to /readyz 200',
      stored: String(stored),
      concurrency: '',
      value: `${((performance.now() - restarted) / 1000).toFixed(2)} s`,
    });
    rows.push({
      measure: 'RSS of the restarted writer',
      stored: String(stored),
      concurrency: '',
      value: `${rssOf(again.pid).toFixed(0)} MB`,
    });
    await proxy.stop();
  } finally {
    await Promise.all(replicas.map((r) => r.kill('SIGTERM')));
    await Promise.all([virtuoso.stop(), postgres.stop()]);
  }
  console.log(
    `\nReplicas on PostgreSQL and Virtuoso, ${availableParallelism()} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  console.log(renderTable(rows));
}

void main();
