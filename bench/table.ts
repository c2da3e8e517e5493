import type { LoadResult } from './load.js';

/** One line of the result table. `value` carries its unit (/s, MB, s, ×). */
export interface Row {
  measure: string;
  stored: string;
  concurrency: string;
  value: string;
  p50?: number;
  p99?: number;
  failures?: string;
  /** Server CPU ms per answer, or for a ratio row the ratio of the two. */
  cpu?: number;
  target?: string;
}

const ms = (value: number | undefined): string =>
  value === undefined || Number.isNaN(value) ? '' : value < 10 ? value.toFixed(2) : value.toFixed(1);

export const perSecond = (value: number): string => (Number.isNaN(value) ? 'n/a' : `${Math.round(value).toLocaleString('en-GB')} /s`);

export const ratio = (a: number, b: number): string => (Number.isNaN(a) || Number.isNaN(b) || b === 0 ? 'n/a' : `${(a / b).toFixed(2)}×`);

export function failures(result: LoadResult): string {
  const parts = [String(result.non2xx)];
  if (result.taskErrors > 0) parts.push(`${result.taskErrors} failed tasks`);
  if (result.errors > 0) parts.push(`${result.errors} socket errors`);
  return parts.join(' + ');
}

export function loadRow(measure: string, stored: string, concurrency: number, result: LoadResult, target = ''): Row {
  return {
    measure,
    stored,
    concurrency: String(concurrency),
    value: perSecond(result.perSecond),
    p50: result.p50,
    p99: result.p99,
    failures: failures(result),
    cpu: result.cpuMsPerRequest,
    target,
  };
}

/** A target with a pass mark, e.g. "≥ 1,000 /s ✓". */
export function check(text: string, ok: boolean | undefined): string {
  return ok === undefined ? text : `${text} ${ok ? '✓' : '✗'}`;
}

/** The scale issue 18's read, restart and memory targets are set for. */
export const TARGET_SCALE = 100_000;

/**
 * A target judged only where its figure means something: given why it does not (`notMeaningful`), the
 * row says so instead of a mark, so a quick run's small scales never meet or miss a target set for 100k.
 */
export function checkIfMeaningful(text: string, ok: boolean | undefined, notMeaningful: string | undefined): string {
  return notMeaningful === undefined ? check(text, ok) : `${text}: not meaningful ${notMeaningful}`;
}

/**
 * Why write rates from runs this short say nothing of a target, or undefined when they do: in a node's
 * first seconds V8's compiler and GC threads add 3–5 ms of CPU to each Create, so a quick run (1 s after
 * 0.3 s of warm-up) measured 29 ms a Create where 3 s runs after a warm-up measured 5–7 ms
 * (bench/results/performance.md, Create). The full plan (4 s after 1 s) is past it.
 */
export function shortRuns(runSeconds: number, warmupSeconds: number): string | undefined {
  return runSeconds >= 3 && warmupSeconds >= 1
    ? undefined
    : `in ${runSeconds} s runs after ${warmupSeconds} s of warm-up (the node is still warming up)`;
}

/** Why a figure measured at `scale` consignments says nothing of a target set for `targetScale`, if it does not. */
export function belowTargetScale(scale: number, targetScale = TARGET_SCALE): string | undefined {
  return scale >= targetScale ? undefined : `at ${scale.toLocaleString('en-GB')} (set for ${targetScale.toLocaleString('en-GB')})`;
}

export function renderTable(rows: Row[]): string {
  const header = ['Measure', 'Stored consignments', 'Conc.', 'Value', 'p50 ms', 'p99 ms', 'non-2xx', 'Server CPU ms/req', 'Target'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_h, i) => (i >= 2 && i <= 7 ? '---:' : '---')).join('|')}|`];
  for (const r of rows) {
    const cpu = r.cpu === undefined || Number.isNaN(r.cpu) ? '' : r.value.endsWith('×') ? `${r.cpu.toFixed(2)}×` : ms(r.cpu);
    lines.push(
      `| ${[r.measure, r.stored, r.concurrency, r.value, ms(r.p50), ms(r.p99), r.failures ?? '', cpu, r.target ?? ''].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}
