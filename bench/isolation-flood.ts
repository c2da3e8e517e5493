/**
 * `npm run bench:isolation`: A's requests while B floods the inbox with large Creates (~150 KB of items
 * each, 32 at once), on a node in this process with one reader thread, as a running node reads
 * payloads. Prints A's p50/p99 and the longest event-loop stall. BENCH_FLOOD_CREATES sizes the flood
 * (96 by default); DATASPACE_READER_SMALL_VALUES is passed on to the node. The issue 48 target is
 * A's p99 < 500 ms on a 2-core machine. With BENCH_FLOOD_JSON=1 it prints the figures as one JSON
 * object instead (what `npm run bench` reads: isolation-rows.ts).
 */
import { cpus, loadavg } from 'node:os';
import { activity, consignment } from '../test/helpers/payloads.js';
import { TestNode, USERS } from '../test/helpers/test-node.js';
import { p99, publishOwn, whileNoisy } from '../test/isolation/neighbours.js';
import { removeScratchDirs } from '../test/helpers/scratch-dirs.js';

const CREATES = Number(process.env.BENCH_FLOOD_CREATES ?? 96);
const CONNECTIONS = 32;
const ITEMS = 640;

function largeCreate(org: string): Record<string, unknown> {
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    type: 'ConsignmentItem',
    goodsTypeCode: 'unece:GoodsTypeCodeList#8483',
    information: `Gearbox spare parts, crate ${i}, packed on pallets of twelve with foam inserts`,
    originCountry: { type: 'Country', countryId: 'unece:CountryId#GB' },
  }));
  return activity('Create', org, consignment({ includedConsignmentItem: items }));
}

async function flood(node: TestNode): Promise<number[]> {
  const token = await node.login('otherForwarder');
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < CREATES) {
        next += 1;
        const res = await node.request('POST', '/supply-chain/data-space/inbox', { token, body: largeCreate(USERS.otherForwarder.org) });
        statuses.push(res.status);
      }
    }),
  );
  return statuses;
}

// DATASPACE_READER_SMALL_VALUES=0 runs it without the small payloads' reader lane, to compare.
const lane = process.env.DATASPACE_READER_SMALL_VALUES;
const node = await TestNode.start({
  DATASPACE_READER_THREADS: '1',
  ...(lane === undefined ? {} : { DATASPACE_READER_SMALL_VALUES: lane }),
});
try {
  const working = await publishOwn(node, 'forwarder');
  const started = performance.now();
  const run = await whileNoisy(node, { user: 'forwarder', consignment: working }, () => flood(node));
  const seconds = (performance.now() - started) / 1000;
  // The turns B's large graphs were staged in (src/adapters/oxigraph/pre-staging.ts), and the longest.
  const sliced = node.node.embedded!.store.sliced;
  const sorted = [...run.quiet.latencies].sort((a, b) => a - b);
  // whileNoisy's every third step is a write (an event added), the others read.
  const writes = run.quiet.latencies.filter((_, i) => i % 3 === 2);
  const reads = run.quiet.latencies.filter((_, i) => i % 3 !== 2);
  const figures = {
    cores: cpus().length,
    load: loadavg()[0]!,
    creates: CREATES,
    connections: CONNECTIONS,
    seconds,
    errors: run.noisy.filter((s) => s !== 201).length,
    requests: sorted.length,
    failed: run.quiet.failures.length,
    p50: sorted[Math.floor(sorted.length / 2)]!,
    p99: p99(sorted),
    readsP99: p99(reads),
    writesP99: p99(writes),
    loopMs: run.maxLoopDelayMs,
    pieces: sliced.pieces,
    longestPieceMs: sliced.longestPieceMs,
  };
  if (process.env.BENCH_FLOOD_JSON === '1') console.log(JSON.stringify(figures));
  else {
    const f = (ms: number) => `${ms.toFixed(0)} ms`;
    console.log(
      `| cores | load (1 min) | B's Creates (~150 KB, ${CONNECTIONS} at once) | B's errors | A's requests | A's p50 | A's p99 | A's reads p99 | A's writes p99 | longest loop stall | B's staging: pieces, longest |`,
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|');
    console.log(
      `| ${figures.cores} | ${figures.load.toFixed(1)} | ${CREATES} in ${seconds.toFixed(0)} s | ${figures.errors} | ${figures.requests} (${figures.failed} failed) | ${f(figures.p50)} | ${f(figures.p99)} | ${f(figures.readsP99)} | ${f(figures.writesP99)} | ${f(figures.loopMs)} | ${sliced.pieces}, ${f(sliced.longestPieceMs)} |`,
    );
  }
} finally {
  await node.stop();
  removeScratchDirs();
}
