/**
 * `node dist/bench/capacity.js <dataDir> <maxConsignments> [reportEvery]`: how many consignments the
 * embedded store takes before the capacity guard answers 507 (DATASPACE_MAX_QUADS, its default unless
 * set in the environment), and what its WebAssembly memory holds on the way.
 *
 * Fills a fresh data dir through the node's own inbox pipeline, in-process (createNode →
 * Ingest.receive, as bench/bulk-seed.ts: a Create per consignment, every tenth also an event and a
 * document), until an activity is refused with 507, `maxConsignments` are in, or the store's memory
 * passes CAPACITY_STOP_GIB (default 3.9; a 32-bit WebAssembly memory ends at 4 GiB and the store is
 * lost past it, so the run stops short of that). Every `reportEvery` consignments (default 10,000) it
 * prints a row: quads, the store's WebAssembly memory and bytes per quad of the quads it holds there,
 * the memory of the activity log's instance apart, RSS, rate and load average.
 * No snapshots are taken on the way and fsync is off: the run measures memory, not durability.
 */
import { loadavg } from 'node:os';
import { InsufficientStorage } from '../src/core/errors.js';
import { startFileServer } from './file-server.js';
import { activity, consignment, document, event, RUN, target } from './payloads.js';
import { inProcessNode } from './in-process-node.js';

const CONCURRENCY = 16;
const GiB = 1024 ** 3;
const say = (text: string) => process.stderr.write(`[capacity ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

async function main(): Promise<void> {
  const [dataDir, maxText, everyText] = process.argv.slice(2);
  if (!dataDir || !maxText) throw new Error('usage: node dist/bench/capacity.js <dataDir> <maxConsignments> [reportEvery]');
  const max = Number(maxText);
  const every = Number(everyText ?? 10_000);
  const stopBytes = Number(process.env.CAPACITY_STOP_GIB ?? 3.9) * GiB;
  const files = await startFileServer();
  const { config, node, principal } = await inProcessNode(dataDir, { DATASPACE_FETCH_ALLOW: new URL(files.url).hostname });
  const store = node.embedded?.store;
  if (!store?.instance) throw new Error('the embedded store has no WebAssembly instance of its own to measure');
  const memoryOf = (held: typeof store | undefined) => held?.instance?.wasm.memory.buffer.byteLength ?? 0;
  const rows = [
    '| consignments | quads | quads per consignment | WebAssembly memory MiB | its quads | bytes per quad | activity log apart: quads, memory MiB | RSS MiB | activities/s | load |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const started = performance.now();
  let next = 0;
  let done = 0;
  let activities = 0;
  let stopped: string | undefined;
  const row = async () => {
    const quads = await node.store.size();
    const own = store.ownApproximateSize;
    const bytes = memoryOf(store);
    const seconds = (performance.now() - started) / 1000;
    const apart = store.apart
      ? `${store.apart.ownApproximateSize.toLocaleString('en-GB')}, ${(memoryOf(store.apart) / 2 ** 20).toFixed(0)}`
      : '–';
    rows.push(
      `| ${done.toLocaleString('en-GB')} | ${quads.toLocaleString('en-GB')} | ${(quads / Math.max(1, done)).toFixed(1)} | ${(bytes / 2 ** 20).toFixed(0)} | ${own.toLocaleString('en-GB')} | ${(bytes / own).toFixed(0)} | ${apart} | ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} | ${(activities / seconds).toFixed(0)} | ${loadavg()[0]!.toFixed(1)} |`,
    );
    say(rows.at(-1)!);
  };
  const send = async (body: Record<string, unknown>): Promise<boolean> => {
    try {
      const entry = await node.ingest.receive(body, principal);
      activities++;
      if (entry.status !== 'completed') throw new Error(`an activity failed: ${JSON.stringify(entry.tasks)}`);
      return true;
    } catch (error) {
      if (!(error instanceof InsufficientStorage)) throw error;
      stopped ??= `507 after ${done.toLocaleString('en-GB')} consignments: ${error.message}`;
      return false;
    }
  };
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (!stopped && next < max) {
        if (store.largestMemoryBytes > stopBytes) {
          stopped ??= `stopped by the run at ${(store.largestMemoryBytes / GiB).toFixed(2)} GiB of WebAssembly memory, before the store's end (no 507 yet)`;
          break;
        }
        const n = next++;
        if (!(await send(activity('Create', principal.org.id, consignment(n, RUN.seed))))) break;
        if (n % 10 === 0) {
          if (!(await send(activity('Add', principal.org.id, event(), target(n, RUN.seed))))) break;
          if (!(await send(activity('Add', principal.org.id, document(`INV-${n}`, files.url), target(n, RUN.seed))))) break;
        }
        done++;
        if (done % every === 0) await row();
      }
    }),
  );
  await row();
  const quota = config.store.maxQuads;
  process.stdout.write(
    `DATASPACE_MAX_QUADS ${quota === 0 ? 'off' : quota.toLocaleString('en-GB')}; ${stopped ?? `${max} consignments in, no 507`}\n\n${rows.join('\n')}\n`,
  );
  await files.close();
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
