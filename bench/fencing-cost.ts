/**
 * `npm run bench:fencing-cost [creates=200] [rounds=4]`: what a replica set's fence adds to a Create
 * (docs/replicas.md "Fencing"), part by part, on a temporary Virtuoso and PostgreSQL:
 *
 * - the store's updates: the changes real Creates commit (captured from an in-process node), sent by
 *   the SPARQL-server store unfenced and fenced on the writer's epoch (on Virtuoso, whose profile has
 *   fenceGuard: one guard heading each request, fence-guard.rq; elsewhere each op conditional on it,
 *   fenced-*.rq) with the lease's trusted-time check around each request; one Create at a time (latency, Virtuoso's CPU) and 16 in flight
 *   (Creates/s). Rounds alternate the two so the machine's drift falls on both;
 * - PostgreSQL's fence: a Create's catalog row (catalog-put.sql) on a table without the trigger, with
 *   it in a session that writes for no epoch (an early return), and in a writer's session (the lease
 *   row read FOR SHARE): one at a time and 4 in flight (the writer's pool);
 * - the lease's local check (`confirmLease`), four of which a Create passes.
 *
 * Prints a markdown table; results go to bench/results/<date>-fencing-cost.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Change } from '../src/core/ports/quad-store.js';
import { int, QueryBank } from '../src/core/queries/query-bank.js';
import { confirmLease } from '../src/adapters/postgres/lease-acknowledgement.js';
import { openPostgres } from '../src/adapters/postgres/postgres-state.js';
import { statement } from '../src/adapters/postgres/statements.js';
import { SparqlStore } from '../src/adapters/sparql-server/sparql-store.js';
import { Postgres } from '../test/helpers/postgres.js';
import { Virtuoso } from '../test/helpers/virtuoso.js';
import { inProcessNode } from './in-process-node.js';
import { activity, consignment } from './payloads.js';
import { cpuOf } from './processes.js';

const CREATES = Number(process.argv[2] ?? 200);
const ROUNDS = Number(process.argv[3] ?? 4);
const IN_FLIGHT = 16;
const say = (text: string) => process.stderr.write(`[fencing-cost ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** The changes each of `count` Creates commits, in order, from a node on the embedded store. */
async function captureCreates(count: number, run: number): Promise<Change[][]> {
  const dir = mkdtempSync(join(tmpdir(), 'dataspace-fencing-cost-'));
  try {
    const { node, principal } = await inProcessNode(dir);
    const changes: Change[] = [];
    const commit = node.store.commit.bind(node.store);
    node.store.commit = (change: Change) => {
      changes.push(change);
      return commit(change);
    };
    const creates: Change[][] = [];
    for (let n = 0; n < count; n++) {
      await node.ingest.receive(activity('Create', principal.org.id, consignment(n, run)), principal);
      await node.settled();
      creates.push(changes.splice(0));
    }
    await node.close();
    return creates;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface StoreSide {
  perCreateMs: number[];
  cpuMs: number;
  sequential: number;
  inFlightMs: number;
  inFlight: number;
}

/** Commits `creates` through `store`: the first half one Create at a time, the rest `IN_FLIGHT` at once. */
async function drive(store: SparqlStore, creates: Change[][], serverPid: number, side: StoreSide): Promise<void> {
  const half = Math.floor(creates.length / 2);
  const cpuBefore = cpuOf(serverPid);
  for (const create of creates.slice(0, half)) {
    const started = performance.now();
    for (const change of create) await (await store.commit(change)).durable;
    side.perCreateMs.push(performance.now() - started);
  }
  side.cpuMs += cpuOf(serverPid) - cpuBefore;
  side.sequential += half;
  const rest = creates.slice(half);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < rest.length) {
        const create = rest[next++]!;
        for (const change of create) await (await store.commit(change)).durable;
      }
    }),
  );
  side.inFlightMs += performance.now() - started;
  side.inFlight += rest.length;
}

async function storeCost(virtuoso: Virtuoso): Promise<string[]> {
  say(`capturing the changes of ${2 * CREATES} Creates on the embedded store`);
  const creates = await captureCreates(2 * CREATES, 31);
  const opsPerCreate = creates.reduce((n, c) => n + c.reduce((m, change) => m + change.ops.length, 0), 0) / creates.length;
  const base = { queryUrl: virtuoso.sparqlUrl, updateUrl: virtuoso.sparqlUrl, user: undefined, password: undefined, timeoutMs: 60_000 };
  // The writer's check as writer-lease.ts makes it: a comparison with the monotonic clock.
  const trustedUntil = performance.now() + 3_600_000;
  const plain = new SparqlStore(base);
  const fenced = new SparqlStore({ ...base, fence: { epoch: 1, held: () => performance.now() < trustedUntil } });
  await fenced.updateNow(new QueryBank().bind('replicas/writer-epoch-set', { epoch: int(1) }));
  const sides = { plain: emptySide(), fenced: emptySide() };
  const per = Math.floor(CREATES / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['plain', 'fenced'] as const) : (['fenced', 'plain'] as const);
    for (const [i, name] of order.entries()) {
      const slice = creates.slice((2 * round + i) * per, (2 * round + i + 1) * per);
      await drive(name === 'plain' ? plain : fenced, slice, virtuoso.pid, sides[name]);
    }
    say(`round ${round + 1} of ${ROUNDS}`);
  }
  await Promise.all([plain.close(), fenced.close()]);
  const row = (what: string, value: (s: StoreSide) => number, digits = 2) => {
    const [a, b] = [value(sides.plain), value(sides.fenced)];
    return `| ${what} | ${fixed(a, digits)} | ${fixed(b, digits)} | ${fixed(b - a, digits)} (${fixed((100 * (b - a)) / a, 0)} %) |`;
  };
  return [
    row(`SPARQL Update, one Create at a time (${opsPerCreate.toFixed(1)} ops a Create): ms a Create, p50`, (s) =>
      quantile(s.perCreateMs, 0.5),
    ),
    row('… p99, ms', (s) => quantile(s.perCreateMs, 0.99)),
    row("… Virtuoso's CPU, ms a Create", (s) => s.cpuMs / s.sequential),
    row(`${IN_FLIGHT} Creates in flight: Creates/s`, (s) => s.inFlight / (s.inFlightMs / 1000), 0),
  ];
}

const emptySide = (): StoreSide => ({ perCreateMs: [], cpuMs: 0, sequential: 0, inFlightMs: 0, inFlight: 0 });

/** catalog-put.sql's values for consignment `n` (catalog-rows.ts putValues' shape). */
const putValues = (n: number): unknown[] => {
  const iri = `urn:uuid:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const record = {
    consignment: iri,
    seq: n,
    owner: 'did:web:forwarder.example',
    globalId: `GID${n}`,
    status: 'Created',
    created: '2026-12-07T00:00:00Z',
  };
  return [
    iri,
    n,
    record.owner,
    record.globalId,
    null,
    `ID${n}`,
    'Created',
    Date.now(),
    ['GBFXT', 'NLRTM'],
    JSON.stringify(record),
    null,
    null,
    n,
    // No root id sent beside the globalId ($14, added with the sent id of #47).
    null,
  ];
};

/** ms a catalog row takes: `count` one at a time, then `count` 4 in flight. */
async function catalogPuts(pool: pg.Pool, from: number, count: number): Promise<{ p50: number; perSecond: number }> {
  const times: number[] = [];
  for (let n = from; n < from + count; n++) {
    const started = performance.now();
    await pool.query(statement('catalog-put'), putValues(n));
    times.push(performance.now() - started);
  }
  const started = performance.now();
  let next = from + count;
  const end = from + 2 * count;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < end) await pool.query(statement('catalog-put'), putValues(next++));
    }),
  );
  return { p50: quantile(times, 0.5), perSecond: count / ((performance.now() - started) / 1000) };
}

async function postgresCost(postgres: Postgres): Promise<string[]> {
  const kinds = ['no trigger', 'trigger, no epoch', 'fenced (epoch 1)'] as const;
  const pools: pg.Pool[] = [];
  for (const kind of kinds) {
    const url = await postgres.database(kind === 'no trigger' ? 'bare' : kind === 'fenced (epoch 1)' ? 'fenced' : 'unset');
    const setup = await openPostgres(url);
    await setup.query(
      "INSERT INTO dataspace_writer (id, holder, since, released, epoch, expires_at) VALUES (1, 'bench', now(), false, 1, 'infinity')",
    );
    if (kind === 'no trigger')
      await setup.query(
        "DO $$ DECLARE t record; BEGIN FOR t IN SELECT tgrelid::regclass AS r FROM pg_trigger WHERE tgname = 'dataspace_fence' LOOP EXECUTE format('DROP TRIGGER dataspace_fence ON %s', t.r); END LOOP; END $$",
      );
    await setup.end();
    pools.push(new pg.Pool({ connectionString: url, max: 4, options: kind === 'fenced (epoch 1)' ? '-c dataspace.epoch=1' : undefined }));
  }
  const results = kinds.map(() => ({ p50: [] as number[], perSecond: [] as number[] }));
  const count = Math.max(50, Math.floor((CREATES * 2) / ROUNDS));
  for (let round = 0; round < ROUNDS; round++) {
    for (const i of round % 2 === 0 ? [0, 1, 2] : [2, 1, 0]) {
      const { p50, perSecond } = await catalogPuts(pools[i]!, round * 2 * count, count);
      results[i]!.p50.push(p50);
      results[i]!.perSecond.push(perSecond);
    }
  }
  await Promise.all(pools.map((p) => p.end()));
  const median = (values: number[]) => quantile(values, 0.5);
  const [bare, unset, fenced] = results.map((r) => ({ p50: median(r.p50), perSecond: median(r.perSecond) }));
  return [
    `| PostgreSQL catalog row, one at a time: ms, p50 (no trigger ${fixed(bare!.p50, 3)}; trigger, no epoch ${fixed(unset!.p50, 3)}) | ` +
      `${fixed(bare!.p50, 3)} | ${fixed(fenced!.p50, 3)} | ${fixed(fenced!.p50 - bare!.p50, 3)} (${fixed((100 * (fenced!.p50 - bare!.p50)) / bare!.p50, 0)} %) |`,
    `| … 4 in flight: rows/s (trigger, no epoch ${fixed(unset!.perSecond, 0)}) | ${fixed(bare!.perSecond, 0)} | ${fixed(fenced!.perSecond, 0)} | ` +
      `${fixed(fenced!.perSecond - bare!.perSecond, 0)} (${fixed((100 * (fenced!.perSecond - bare!.perSecond)) / bare!.perSecond, 0)} %) |`,
  ];
}

function leaseCheckCost(): string {
  const until = performance.now() + 3_600_000;
  const held = () => performance.now() < until;
  const calls = 2_000_000;
  const started = performance.now();
  for (let i = 0; i < calls; i++) confirmLease(held);
  const ns = ((performance.now() - started) * 1e6) / calls;
  return `| The lease's local check (\`confirmLease\`), 4 a Create: ns a Create | 0 | ${fixed(4 * ns, 0)} | ${fixed(4 * ns, 0)} |`;
}

async function main(): Promise<void> {
  say(
    `${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const [virtuoso, postgres] = await Promise.all([Virtuoso.start(), Postgres.start()]);
  try {
    const rows = [...(await storeCost(virtuoso)), ...(await postgresCost(postgres)), leaseCheckCost()];
    console.log(
      `\n${CREATES} Creates a side in ${ROUNDS} alternating rounds; ${cpus().length} cores, load average after ${loadavg()[0]!.toFixed(2)}\n`,
    );
    console.log('| Measure | Unfenced | Fenced | Added |');
    console.log('|---|---|---|---|');
    for (const row of rows) console.log(row);
  } finally {
    await Promise.all([virtuoso.stop(), postgres.stop()]);
  }
}

await main();
