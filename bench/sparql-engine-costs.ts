/**
 * What an engine thread of the SPARQL endpoint spends its time on while writes arrive: the cost of
 * following one committed change, of finding which graphs a caller may see, and of the query itself,
 * measured in-process on the thread's own EngineCopy (src/adapters/sparql-endpoint/engine/engine-copy.ts), so the figures
 * are the thread's work without messaging or scheduling.
 *
 * Usage: node dist/bench/sparql-engine-costs.js <seededDataDir> [activities=600] [changesPerQuery=2]
 * The data dir (from bench/bulk-seed.js) is copied first and left as it was. The copy recovers from it;
 * then a node on the same copy writes `activities` activities (half Creates, half Add events on
 * seeded consignments) through its own inbox pipeline, and the changes it logged are replayed into the
 * engine copy as they would arrive, a query of the soak's border agency every `changesPerQuery`
 * changes (the soak sends two writes per SPARQL select): each change applied as a batch of its own
 * (the worst case: under load the thread batches more), then the visible graphs and the query. Last,
 * the cost of recomputing the visible graphs whole (after a policy change) is measured apart.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from '../src/config.js';
import { createLogger } from '../src/core/logger.js';
import { createNode } from '../src/node.js';
import { logFileName, logGenerations, readLog } from '../src/adapters/oxigraph/log/write-ahead-log.js';
import { EngineCopy } from '../src/adapters/sparql-endpoint/engine/engine-copy.js';
import { activity, consignment, event, RUN, target } from './payloads.js';
import { BENCH_SEED, BENCH_USERS } from './users.js';

const [seeded, activitiesText = '600', perQueryText = '2'] = process.argv.slice(2);
if (seeded === undefined) throw new Error('usage: node dist/bench/sparql-engine-costs.js <seededDataDir> [activities] [changesPerQuery]');
const activities = Number(activitiesText);
const changesPerQuery = Number(perQueryText);
const work = mkdtempSync(join(tmpdir(), 'engine-costs-'));
cpSync(seeded, work, { recursive: true });

const newestLog = () => join(work, logFileName(logGenerations(work).at(-1)!));
const copy = new EngineCopy();
let t = performance.now();
const recovered = copy.recover(work, createLogger('warn'));
console.log(`engine copy recovered: ${recovered} quads (data + catalog) in ${Math.round(performance.now() - t)} ms`);
const logBefore = newestLog();
const changesBefore = readLog(logBefore).changes.length;

// The node writes through its inbox, as in the soak: new consignments and events on seeded ones.
const config = readConfig({
  ...process.env,
  NODE_ENV: 'production',
  DATASPACE_DATA_DIR: work,
  DATASPACE_SEED: BENCH_SEED,
  DATASPACE_FSYNC: 'off',
  DATASPACE_MAX_QUADS: '0',
  DATASPACE_SNAPSHOT_LOG_BYTES: String(Number.MAX_SAFE_INTEGER),
  PORT: '0',
});
const node = await createNode(config, createLogger('warn'));
const org = node.registry.organisation(node.users.organisationOf(BENCH_USERS.forwarder.email)!)!;
const principal = { email: BENCH_USERS.forwarder.email, org };
for (let i = 0; i < activities; i++) {
  const body =
    i % 2 === 0
      ? activity('Create', org.id, consignment(1_000_000 + i, RUN.writes))
      : activity('Add', org.id, event(), target((i * 7) % 1000, RUN.seed));
  const entry = await node.ingest.receive(body, principal);
  if (entry.status !== 'completed') throw new Error(JSON.stringify(entry.tasks));
}
await node.close();
if (newestLog() !== logBefore) throw new Error('the node started a new log: the bench expects one');
const changes = readLog(logBefore).changes.slice(changesBefore);
console.log(`${changes.length} changes committed by ${activities} activities`);

const border = { id: BENCH_USERS.border.org, role: 'borderAgency' as const, country: 'GB', locations: [] };
const select = {
  query: 'SELECT ?c ?id WHERE { ?c <https://vocabulary.uncefact.org/globalId> ?id } LIMIT 20',
  format: 'application/sparql-results+json',
  principal: border,
};
const applyMs: number[] = [];
const visibleMs: number[] = [];
const queryMs: number[] = [];
changes.forEach((change, i) => {
  t = performance.now();
  copy.follow(change);
  copy.flush();
  applyMs.push(performance.now() - t);
  if ((i + 1) % changesPerQuery !== 0) return;
  t = performance.now();
  copy.visible.of(border);
  visibleMs.push(performance.now() - t);
  t = performance.now();
  copy.query(select);
  queryMs.push(performance.now() - t);
});
const wholeMs: number[] = [];
for (let i = 0; i < 5; i++) {
  copy.visible.reset();
  t = performance.now();
  copy.visible.of(border);
  wholeMs.push(performance.now() - t);
}

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN).toFixed(2);
  return `n=${ms.length} mean ${(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(2)} ms, p50 ${at(0.5)}, p99 ${at(0.99)}`;
};
console.log(`apply one change: ${stats(applyMs)}`);
console.log(`visible graphs of the border agency, brought up to date: ${stats(visibleMs)}`);
console.log(`visible graphs of the border agency, recomputed whole (a policy change): ${stats(wholeMs)}`);
console.log(`query: ${stats(queryMs)}`);
const perQuery =
  (applyMs.reduce((a, b) => a + b, 0) + visibleMs.reduce((a, b) => a + b, 0) + queryMs.reduce((a, b) => a + b, 0)) / queryMs.length;
console.log(
  `engine time per select with ${changesPerQuery} changes between selects: ${perQuery.toFixed(1)} ms, so at most ${(1000 / perQuery).toFixed(1)} selects/s on one thread (load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')})`,
);
rmSync(work, { recursive: true, force: true });
process.exit(0);
