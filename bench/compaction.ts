/**
 * `node --expose-gc dist/bench/compaction.js [consignments] [updates] [dataDir]`: what compaction gives
 * back (docs/memory-compaction.md). In-process, as bulk-seed.ts seeds (createNode → Ingest.receive, one
 * durable commit per activity): seeds the consignments, runs the Updates (each changes one
 * consignment's values, so its state graph is dropped and written again), then takes a snapshot, which
 * compacts the store while Updates go on beside it. Prints one markdown table: store quads, removed
 * quads counted, WebAssembly memory (its size, and the pages written, what RSS holds of it) and RSS
 * before and after the Updates and after the compaction; the compaction's time and phases; the longest
 * event-loop pause while it ran (perf_hooks.monitorEventLoopDelay) and the compactor's own longest
 * slice; and the load average.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as tick } from 'node:timers/promises';
import { nonZeroRuns } from '../src/adapters/oxigraph/wasm/memory-image.js';
import type { OxigraphStore } from '../src/adapters/oxigraph/oxigraph-store.js';
import { activity, consignment, RUN } from './payloads.js';
import { inProcessNode } from './in-process-node.js';

const CONCURRENCY = 16;
const MB = 1024 * 1024;
const mb = (bytes: number): string => `${(bytes / MB).toFixed(0)} MB`;

interface Sample {
  quads: number;
  dead: number;
  memory: number;
  written: number;
  rss: number;
  heap: number;
  buffers: number;
}

/**
 * Measures after two collections a moment apart: a collected ArrayBuffer's bytes (a compaction's image)
 * are freed by V8 in the background, so RSS read at once after gc() may still hold them.
 */
async function sample(store: OxigraphStore): Promise<Sample> {
  for (let i = 0; i < 2; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((ok) => setTimeout(ok, 500));
  }
  const buffer = store.instance?.wasm.memory.buffer;
  const written = buffer ? nonZeroRuns(new Uint8Array(buffer)).reduce((n, [, pages]) => n + pages * 65536, 0) : 0;
  const usage = process.memoryUsage();
  return {
    quads: store.store.size,
    dead: store.deadQuads,
    memory: buffer?.byteLength ?? 0,
    written,
    rss: usage.rss,
    heap: usage.heapUsed,
    buffers: usage.arrayBuffers,
  };
}

async function main(): Promise<void> {
  const [countText = '10000', updatesText, dirArgument] = process.argv.slice(2);
  const count = Number(countText);
  const updates = Number(updatesText ?? count);
  const dataDir = dirArgument ?? mkdtempSync(join(tmpdir(), 'dataspace-compaction-'));
  // The one snapshot is taken below, where it is measured (inProcessNode sets none).
  const { node, principal } = await inProcessNode(dataDir, { DATASPACE_MAX_QUADS: '0' });
  const embedded = node.embedded;
  if (!embedded) throw new Error("compaction is the embedded store's: unset DATASPACE_STORE");
  let failures = 0;
  const send = async (body: Record<string, unknown>) => {
    const entry = await node.ingest.receive(body, principal);
    if (entry.status !== 'completed' || entry.tasks.some((t) => t.error)) failures += 1;
  };
  const inParallel = async (n: number, work: (i: number) => Promise<void>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < n) await work(next++);
      }),
    );
  };
  const say = (text: string) => process.stderr.write(`[compaction ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

  let started = performance.now();
  await inParallel(count, (n) => send(activity('Create', principal.org.id, consignment(n, RUN.seed))));
  say(`seeded ${count} consignments in ${Math.round(performance.now() - started)} ms`);
  const seeded = await sample(embedded.store);
  let revision = 0;
  const update = (n: number) =>
    send(
      activity('Update', principal.org.id, {
        ...consignment(n % count, RUN.seed),
        summaryDescription: `Machine parts, revision ${revision++}`,
      }),
    );
  started = performance.now();
  await inParallel(updates, update);
  say(`${updates} Updates in ${Math.round(performance.now() - started)} ms`);
  const updated = await sample(embedded.store);

  // The snapshot that compacts, with Updates going on beside it (one at a time, as a steady client).
  const delay = monitorEventLoopDelay({ resolution: 10 });
  let writing = true;
  let during = 0;
  const writer = (async () => {
    while (writing) {
      await update(during++);
      await tick();
    }
  })();
  // Freed by V8 once nothing refers to it: checked below, not assumed.
  const oldMemory = new WeakRef(embedded.store.instance!.wasm.memory);
  delay.enable();
  started = performance.now();
  const snapshot = await embedded.snapshotter.take();
  const snapshotMs = performance.now() - started;
  delay.disable();
  writing = false;
  await writer;
  const compaction = embedded.compactor.history.at(-1);
  // A few collections, a tick apart: the old instance goes once the last closure over it has run.
  // (A deref() keeps its target alive until the end of the job it ran in: the collection runs in the next.)
  let oldFreed = false;
  for (let i = 0; i < 20 && !oldFreed; i++) {
    await new Promise((ok) => setTimeout(ok, 100));
    (globalThis as { gc?: () => void }).gc?.();
    oldFreed = oldMemory.deref() === undefined;
  }
  const compacted = await sample(embedded.store);
  // RSS once more after ten idle seconds: memory freed by a collection reaches the OS lazily.
  await new Promise((ok) => setTimeout(ok, 10_000));
  const settled = await sample(embedded.store);
  await node.close();
  if (!dirArgument) rmSync(dataDir, { recursive: true, force: true });

  const row = (what: string, s: Sample) =>
    `| ${what} | ${s.quads.toLocaleString('en-GB')} | ${s.dead.toLocaleString('en-GB')} | ${mb(s.memory)} | ${mb(s.written)} | ${mb(s.rss)} | ${mb(s.heap)} | ${mb(s.buffers)} |`;
  const lines = [
    `Compaction bench: ${count.toLocaleString('en-GB')} consignments, ${updates.toLocaleString('en-GB')} Updates; ${cpus().length} cores; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${failures} failed activities`,
    '',
    '| Point | Store quads | Removed quads counted | Wasm memory | Wasm written | RSS | JS heap used | ArrayBuffers |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    row('after seeding', seeded),
    row('after the Updates', updated),
    row('after compaction', compacted),
    row('10 s later', settled),
    '',
  ];
  if (!compaction) {
    lines.push(
      `No compaction took place (snapshot ${snapshot ? 'written' : 'failed'}): the removed quads were not due (DATASPACE_STORE_COMPACT_*).`,
      `Snapshot ${Math.round(snapshotMs)} ms, ${during} Updates beside it; longest event-loop pause ${(delay.max / 1e6).toFixed(0)} ms (p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms); the walk's longest ${snapshot?.longestPauseMs ?? 'n/a'} ms.`,
    );
  } else {
    lines.push(
      '| Compaction | Value |',
      '|---|---:|',
      `| snapshot + compaction, all told | ${Math.round(snapshotMs)} ms |`,
      `| of which the compaction (thread load + image, restore, catch-up) | ${compaction.ms} ms (${compaction.buildMs} + ${compaction.restoreMs} + ${compaction.ms - compaction.buildMs - compaction.restoreMs}) |`,
      `| changes applied in the catch-up | ${compaction.caughtUp} |`,
      `| Updates acknowledged during the snapshot and compaction | ${during} |`,
      `| longest step of the restore / slice of the catch-up | ${compaction.longestRestoreStepMs} ms / ${compaction.longestCatchUpSliceMs} ms |`,
      `| longest event-loop pause during snapshot + compaction (monitorEventLoopDelay max) | ${(delay.max / 1e6).toFixed(0)} ms (p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms) |`,
      `| snapshot walk's longest pause | ${snapshot?.longestPauseMs ?? 'n/a'} ms |`,
      `| the old WebAssembly memory collected by V8 | ${oldFreed ? 'yes' : 'no (still referenced)'} |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exit(failures > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
