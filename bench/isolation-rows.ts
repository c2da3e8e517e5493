import { runScript } from './processes.js';
import { check, type Row } from './table.js';

/** What bench/isolation-flood.ts prints with BENCH_FLOOD_JSON=1. */
interface Flood {
  cores: number;
  load: number;
  creates: number;
  connections: number;
  seconds: number;
  errors: number;
  requests: number;
  failed: number;
  p50: number;
  p99: number;
  readsP99: number;
  writesP99: number;
  loopMs: number;
}

/** Issue 48: another organisation's p99 while one floods the inbox with large writes, on 2 cores. */
const TARGET_P99_MS = 500;

/**
 * `npm run bench`'s isolation rows: A's requests (reads of its consignment, every third an Add) while B
 * sends `creates` Creates of ~150 KB, 32 at once, on one node with one reader thread (isolation-flood.ts,
 * in a process of its own so its event loop is the node's alone).
 */
export async function isolationRows(rows: Row[], script: string, creates: number): Promise<void> {
  const out = JSON.parse(await runScript(script, [], { BENCH_FLOOD_CREATES: String(creates), BENCH_FLOOD_JSON: '1' })) as Flood;
  const flood = `${out.creates} Creates of ~150 KB by B, ${out.connections} at once, in ${out.seconds.toFixed(0)} s (${out.errors} refused)`;
  rows.push({
    measure: `Isolation: A's requests while ${flood}; load ${out.load.toFixed(1)}`,
    stored: '',
    concurrency: `1 (A) + ${out.connections} (B)`,
    value: `${out.requests} (${out.failed} failed); reads p99 ${out.readsP99.toFixed(0)} ms, writes p99 ${out.writesP99.toFixed(0)} ms`,
    p50: out.p50,
    p99: out.p99,
    target: check(`A's p99 < ${TARGET_P99_MS} ms`, out.p99 < TARGET_P99_MS),
  });
  rows.push({
    measure: `Isolation: the node's longest event-loop stall while ${flood}`,
    stored: '',
    concurrency: `1 (A) + ${out.connections} (B)`,
    value: `${out.loopMs.toFixed(0)} ms`,
  });
}
