/**
 * The bench's row "first read after N Creates with no read between", on the embedded store and on
 * Virtuoso (test/helpers/virtuoso.ts, a temporary database): a fresh node, N Creates at 16 connections
 * with no read among them, then the first list page, timed. Each row prints the node's longest
 * event-loop delay over the burst and the read, from its own /metrics
 * (dataspace_event_loop_delay_max_seconds: the longest in the last 60 s, polled every 10 s); the
 * read's own share of it is at most the read's time, as nothing else runs then.
 * BENCH_FIRST_READ_CREATES sets N (10,000; quick: 1,000). The read side used to catch up on every
 * write since the last read in that first read: 13–33 s at 10,000 on main, the event loop held all along.
 */
import { join } from 'node:path';
import { Virtuoso, virtuosoMissing } from '../test/helpers/virtuoso.js';
import { METRICS_TOKEN } from './memory-rows.js';
import { activity, consignment, RUN } from './payloads.js';
import type { ServerProcess } from './processes.js';
import type { Row } from './table.js';
import { BENCH_USERS } from './users.js';

export interface FirstReadBench {
  quick: boolean;
  work: string;
  rows: Row[];
  say(text: string): void;
  startNode(dataDir: string, name: string, env: Record<string, string>): Promise<ServerProcess>;
  stop(server: ServerProcess): Promise<void>;
  login(url: string, user: { email: string; password: string }): Promise<string>;
}

const INBOX = '/supply-chain/data-space/inbox';
const CONSIGNMENTS = '/supply-chain/data-space/consignments';
const CONNECTIONS = 16;

/** The node's longest event-loop delay in the last 60 s, in ms. */
async function loopMaxMs(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return Number(/^dataspace_event_loop_delay_max_seconds (\S+)/m.exec(text)?.[1] ?? NaN) * 1000;
}

export async function firstReadRows(b: FirstReadBench): Promise<void> {
  const creates = Number(process.env.BENCH_FIRST_READ_CREATES ?? (b.quick ? 1000 : 10_000));
  await row(b, 'embedded', {}, creates);
  const missing = virtuosoMissing();
  if (missing) {
    b.rows.push({
      measure: `First read after ${creates.toLocaleString('en-GB')} Creates with no read between (Virtuoso)`,
      stored: '',
      concurrency: '',
      value: `n/a (${missing})`,
    });
    return;
  }
  const virtuoso = await Virtuoso.start({ buffers: Number(process.env.BENCH_VIRTUOSO_BUFFERS ?? 340_000) });
  try {
    await row(
      b,
      'Virtuoso',
      { DATASPACE_STORE: 'sparql', DATASPACE_SPARQL_QUERY_URL: virtuoso.sparqlUrl, DATASPACE_SPARQL_UPDATE_URL: virtuoso.sparqlUrl },
      creates,
    );
  } finally {
    await virtuoso.stop();
  }
}

async function row(b: FirstReadBench, store: string, env: Record<string, string>, creates: number): Promise<void> {
  const node = await b.startNode(join(b.work, `first-read-${store}`), `node-first-read-${store}`, env);
  try {
    const token = await b.login(node.url, BENCH_USERS.forwarder);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    let next = 0;
    const statuses = new Map<number, number>();
    let burstLoopMs = 0;
    const poll = setInterval(() => {
      void loopMaxMs(node.url).then(
        (ms) => {
          burstLoopMs = Math.max(burstLoopMs, ms);
        },
        () => undefined,
      );
    }, 10_000);
    const burstStarted = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < creates) {
          const n = next++;
          const res = await fetch(`${node.url}${INBOX}`, {
            method: 'POST',
            headers,
            body: JSON.stringify(activity('Create', BENCH_USERS.forwarder.org, consignment(n, RUN.firstRead))),
          });
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }),
    );
    clearInterval(poll);
    const burstSeconds = (performance.now() - burstStarted) / 1000;
    const started = performance.now();
    const res = await fetch(`${node.url}${CONSIGNMENTS}?limit=50`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    const firstReadMs = performance.now() - started;
    const loopMs = Math.max(burstLoopMs, await loopMaxMs(node.url));
    const failed = [...statuses]
      .filter(([status]) => status !== 201)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    b.say(
      `first read (${store}): ${creates} Creates in ${burstSeconds.toFixed(0)} s, then ${res.status} in ${firstReadMs.toFixed(0)} ms; longest loop delay ${loopMs.toFixed(0)} ms`,
    );
    b.rows.push({
      measure: `First read after ${creates.toLocaleString('en-GB')} Creates with no read between (${store}); longest event-loop delay over burst and read`,
      stored: 'fresh',
      concurrency: String(CONNECTIONS),
      value: `${res.status} in ${firstReadMs.toFixed(0)} ms; loop ${loopMs.toFixed(0)} ms (${(creates / burstSeconds).toFixed(0)} Creates/s)`,
      failures: failed || undefined,
    });
  } finally {
    await b.stop(node);
  }
}
