/**
 * What a retry check costs a replica: `node dist/bench/activity-id-lookup.js [entries] [lookups]`
 * (5,000 and 500 by default, well under a minute). Fills a Virtuoso of the test helper's with
 * `entries` activity-log entries written as the ingest writes them (entry, actor, date, activity id
 * and digest; 5 actors), then asks, one at a time: the store lookup a replica makes
 * (StoredActivityIds, nothing cached) for ids stored and ids not, the same query with the actor's
 * pattern first, and the single node's in-memory window (ProcessedActivities): its load at start
 * and its lookups, beside the cheapest question the store is asked (store/ping), and Virtuoso's CPU
 * per lookup. Prints one JSON line.
 */
import { randomUUID } from 'node:crypto';
import { activityIdOps, ProcessedActivities } from '../src/core/activities/idempotency.js';
import { StoredActivityIds } from '../src/core/activities/stored-activity-ids.js';
import { logEntryOps } from '../src/core/catalog/activity-log.js';
import { entry, task } from '../src/core/catalog/log-entry.js';
import { QueryBank } from '../src/core/queries/query-bank.js';
import { SparqlStore } from '../src/adapters/sparql-server/sparql-store.js';
import { Virtuoso } from '../test/helpers/virtuoso.js';
import { percentile } from './load.js';
import { cpuOf } from './processes.js';

const entries = Number(process.argv[2] ?? 5000);
const lookups = Number(process.argv[3] ?? 500);
const ACTORS = Array.from({ length: 5 }, (_, i) => `did:web:org${i}.example`);
const queries = new QueryBank();

const activityIdOf = (n: number) => `urn:uuid:${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`;

/** Milliseconds each call of `fn` took, one call at a time. */
async function timed(n: number, fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number; mean: number }> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    ms.push(performance.now() - t);
  }
  const sorted = Float64Array.from(ms).sort();
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { p50: round(percentile(sorted, 0.5)), p99: round(percentile(sorted, 0.99)), mean: round(ms.reduce((a, b) => a + b, 0) / n) };
}

async function main(): Promise<void> {
  const virtuoso = await Virtuoso.start();
  try {
    const store = new SparqlStore({
      queryUrl: virtuoso.sparqlUrl,
      updateUrl: virtuoso.sparqlUrl,
      user: undefined,
      password: undefined,
      timeoutMs: 60_000,
    });
    const now = new Date();
    let t = performance.now();
    let last: Promise<void> = Promise.resolve();
    for (let n = 0; n < entries; n++) {
      const activity = `urn:uuid:${randomUUID()}`;
      const at = new Date(now.getTime() - (entries - n) * 1000);
      const logEntry = entry(activity, 'bench-node', at, [task('consignment-store', at, at, { result: 42 })]);
      const ops = [
        ...logEntryOps(activity, ACTORS[n % ACTORS.length]!, logEntry, `urn:uuid:${randomUUID()}`, true),
        ...activityIdOps(activity, activityIdOf(n), `digest-${n}`),
      ];
      last = (await store.commit({ ops })).durable;
    }
    await last;
    const fillMs = Math.round(performance.now() - t);

    const stored = new StoredActivityIds(store, queries);
    const at = new Date();
    const hit = async (i: number) => {
      const n = (i * 7919) % entries;
      const seen = await stored.lookup(ACTORS[n % ACTORS.length]!, activityIdOf(n), `digest-${n}`, at);
      if (!seen.replay?.samePayload) throw new Error(`id ${n} not found`);
    };
    const miss = async (i: number) => {
      const seen = await stored.lookup(ACTORS[i % ACTORS.length]!, `urn:example:new-${i}`, 'digest', at);
      if (seen.replay) throw new Error('a new id was found');
    };
    await timed(20, hit); // warm: connections and Virtuoso's plan cache
    // The floor: the cheapest question the store is asked (a protocol round trip and a parse).
    let cpu = cpuOf(virtuoso.pid);
    const ping = await timed(lookups, () => store.ask(queries.text('store/ping')));
    const virtuosoCpuMsPerPing = Math.round(((cpuOf(virtuoso.pid) - cpu) / lookups) * 1000) / 1000;
    cpu = cpuOf(virtuoso.pid);
    const storeHit = await timed(lookups, hit);
    const virtuosoCpuMsPerLookup = Math.round(((cpuOf(virtuoso.pid) - cpu) / lookups) * 1000) / 1000;
    const storeMiss = await timed(lookups, miss);
    // The same question with the actor's pattern first, to see whether the order written matters to Virtuoso.
    const actorFirst = queries
      .text('ingest/processed-activity')
      .replace(
        '?entry svc:activityId $activityId ;\n           svc:actor $actor ;',
        '?entry svc:actor $actor ;\n           svc:activityId $activityId ;',
      );
    if (actorFirst === queries.text('ingest/processed-activity')) throw new Error('the query text changed: update the bench');
    const since = {
      literal: new Date(at.getTime() - 7 * 24 * 3600 * 1000).toISOString(),
      datatype: 'http://www.w3.org/2001/XMLSchema#dateTime',
    };
    const actorFirstHit = await timed(lookups, async (i) => {
      const n = (i * 7919) % entries;
      const text = actorFirst.replace(/\$([A-Za-z]+)/g, (_w, name: string) =>
        name === 'actor'
          ? `<${ACTORS[n % ACTORS.length]!}>`
          : name === 'activityId'
            ? JSON.stringify(activityIdOf(n))
            : `"${since.literal}"^^<${since.datatype}>`,
      );
      if ((await store.select(text)).length !== 1) throw new Error(`id ${n} not found`);
    });

    const memory = new ProcessedActivities(store, queries);
    t = performance.now();
    await memory.start(at);
    const memoryLoadMs = Math.round(performance.now() - t);
    const memoryHit = await timed(lookups * 10, async (i) => {
      const n = (i * 7919) % entries;
      if (!(await memory.lookup(ACTORS[n % ACTORS.length]!, activityIdOf(n), `digest-${n}`, at)).replay)
        throw new Error(`id ${n} not in memory`);
    });
    console.log(
      JSON.stringify({
        entries,
        lookups,
        fillMs,
        ping,
        virtuosoCpuMsPerPing,
        storeHit,
        virtuosoCpuMsPerLookup,
        storeMiss,
        actorFirstHit,
        memoryLoadMs,
        memoryHit,
      }),
    );
    await store.close();
  } finally {
    await virtuoso.stop();
  }
}

await main();
