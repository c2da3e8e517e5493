/**
 * Bench-only bulk path: fills a data dir with consignments through the node's own inbox pipeline
 * (createNode → Ingest.receive: parse, validation, authorisation, one durable commit per activity),
 * in-process and without HTTP, before the node under test starts on that data dir. The stored state
 * is the one the inbox produces, because it is the inbox code that produces it.
 *
 * Usage: node dist/bench/bulk-seed.js <dataDir> <seedFile> <from> <to> <extrasEvery> <filesUrl>
 * Consignments from..to-1 are created; every extrasEvery-th also gets an event and a document.
 * Prints one JSON line: {"activities":…, "ms":…, "perSecond":…, "snapshotMs":…}.
 *
 * Snapshots: a node takes one whenever its log passes a quarter of its newest snapshot, so growing a
 * store tenfold writes ~10 snapshots costing ~5 times the last one (seeding 10k → 100k took 348–381 s
 * with them, 266 s with one). The seeder takes one instead, once 90 % of its consignments are in, and
 * leaves the rest in the log: the data dir holds what a running node's would (a snapshot and a log
 * tail under the quarter that would start the next one), so a restart still measures a snapshot load
 * plus a log replay.
 */
import { readConfig } from '../src/config.js';
import { createLogger } from '../src/core/logger.js';
import { createNode } from '../src/node.js';
import { activity, consignment, document, event, RUN, target } from './payloads.js';
import { BENCH_USERS } from './users.js';

const CONCURRENCY = 32;
/** Share of the consignments seeded before the one snapshot; the rest stay in the log. */
const SNAPSHOT_AT = 0.9;

async function main(): Promise<void> {
  const [dataDir, seedFile, fromText, toText, extrasText, filesUrl] = process.argv.slice(2);
  if (filesUrl === undefined)
    throw new Error('usage: node dist/bench/bulk-seed.js <dataDir> <seedFile> <from> <to> <extrasEvery> <filesUrl>');
  const from = Number(fromText);
  const to = Number(toText);
  const extrasEvery = Number(extrasText);
  const config = readConfig({
    ...process.env,
    NODE_ENV: 'production',
    DATASPACE_DATA_DIR: dataDir,
    DATASPACE_SEED: seedFile,
    DATASPACE_FSYNC: 'on',
    DATASPACE_FETCH_ALLOW: new URL(filesUrl).hostname,
    // The read scales go past the default quota (3M quads, ~40k consignments): the bench measures them anyway.
    DATASPACE_MAX_QUADS: '0',
    // No snapshot on the way: the seeder takes its one (see above).
    DATASPACE_SNAPSHOT_LOG_BYTES: String(Number.MAX_SAFE_INTEGER),
    PORT: '0',
  });
  const node = await createNode(config, createLogger('warn'));
  const org = node.registry.organisation(node.users.organisationOf(BENCH_USERS.forwarder.email)!);
  if (!org) throw new Error(`the seed has no user ${BENCH_USERS.forwarder.email}`);
  const principal = { email: BENCH_USERS.forwarder.email, org };
  const did = org.id;
  // On an external store (DATASPACE_STORE=sparql in the environment) the server keeps the data: no snapshot.
  const snapshotter = node.capabilities.snapshots;
  const snapshotFrom = from + Math.floor((to - from) * SNAPSHOT_AT);
  let snapshot: Promise<number> | undefined;

  let next = from;
  let activities = 0;
  const failures: string[] = [];
  const send = async (body: Record<string, unknown>) => {
    const entry = await node.ingest.receive(body, principal);
    activities++;
    if (entry.status !== 'completed' || entry.tasks.some((t) => t.error)) failures.push(JSON.stringify(entry.tasks));
  };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < to) {
        const n = next++;
        if (snapshotter && n === snapshotFrom) {
          // Taken beside the writes, as a running node takes it.
          const snapshotStarted = performance.now();
          snapshot = snapshotter.take().then((result) => {
            if (!result) throw new Error("the seeder's snapshot failed (see the log above)");
            return performance.now() - snapshotStarted;
          });
          // Awaited after the last write; until then a failure must not count as unhandled.
          snapshot.catch(() => undefined);
        }
        await send(activity('Create', did, consignment(n, RUN.seed)));
        if (extrasEvery > 0 && n % extrasEvery === 0) {
          await send(activity('Add', did, event(), target(n, RUN.seed)));
          await send(activity('Add', did, document(`INV-${n}`, filesUrl), target(n, RUN.seed)));
        }
      }
    }),
  );
  const snapshotMs = await snapshot;
  const ms = performance.now() - started;
  await node.close();
  if (failures.length > 0) throw new Error(`${failures.length} activities failed, first: ${failures[0]}`);
  process.stdout.write(
    `${JSON.stringify({ activities, ms: Math.round(ms), perSecond: Math.round((activities / ms) * 1000), snapshotMs: snapshotMs === undefined ? null : Math.round(snapshotMs) })}\n`,
  );
  // Background work other components may have started (signal delivery, snapshots) must not keep a seeder alive.
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
