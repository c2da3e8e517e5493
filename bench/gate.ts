/**
 * `npm run bench:gate`: the speed gate. Measures the node's CPU per Create, per first view and per
 * list page beside the ceiling's CPU per Create (ceiling-server.ts, the design's least work) in the
 * same interleaved rounds, and compares each ratio node ÷ ceiling with bench/gate-baseline.json. It
 * exits 1 when a median ratio rose by more than the baseline's tolerance (the noise measured on main,
 * bench/README.md). CPU per request moves little with the machine's load, and a ratio of two processes'
 * CPU on one machine cancels the machine's speed, so the baseline holds on another machine.
 *
 * Every round does a fixed amount of work (not a fixed time), so the store is the same size at each
 * step on any machine. A verdict over the baseline is confirmed by more rounds before the gate fails.
 *
 * node dist/bench/gate.js                       (GATE_ROUNDS=30, GATE_NODE_DIST=<dist> tries another build)
 * node dist/bench/gate.js --write-baseline [run.out ...]   the medians of earlier runs' outputs, or one run's
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot } from '../src/core/project-paths.js';
import { median } from './load.js';
import { gateNode, gateCeiling, type GateSide } from './gate-sides.js';

const ROUNDS = Number(process.env.GATE_ROUNDS ?? 30);
/** Rounds added when a first verdict is over the baseline: a failure is confirmed over all rounds. */
const CONFIRM_ROUNDS = 15;
const BASELINE = resolve(projectRoot, 'bench', 'gate-baseline.json');
const MEASURES = ['create', 'view', 'list'] as const;
type Measure = (typeof MEASURES)[number];

interface Baseline {
  /** The commit and machine the ratios were measured on, and how the tolerance was found. */
  note: string;
  /** How far (0.12 = 12 %) each ratio may rise over the baseline's before the gate fails. */
  tolerance: Record<Measure, number>;
  ratios: Record<Measure, number>;
}

/** One round's CPU ms per request of the node's three measures and the ceiling's Create. */
interface Round {
  create: number;
  view: number;
  list: number;
  ceiling: number;
}

const say = (text: string) => process.stderr.write(`[gate ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

/**
 * One round: the node's three measures between two runs of the ceiling, so both sides sample the
 * machine's load over the same stretch of time.
 */
async function round(node: GateSide, ceiling: GateSide, i: number): Promise<Round> {
  const before = await ceiling.create();
  const create = await node.create();
  const view = await node.views();
  const list = await node.lists();
  const after = await ceiling.create();
  const r = { create, view, list, ceiling: (before + after) / 2 };
  say(
    `round ${i}: CPU ms per Create ${create.toFixed(2)}, first view ${view.toFixed(2)}, list page ${list.toFixed(2)}; ceiling Create ${before.toFixed(2)}/${after.toFixed(2)}`,
  );
  return r;
}

/**
 * Each measure's median over the rounds of its ratio to the same round's ceiling: a round's two sides
 * run a second or two apart, so a stretch of heavier load weighs on both; the median drops the rounds
 * the node spent in a burst of full GCs (its store's memory growing) or the machine in a burst of load.
 */
function ratios(rounds: Round[]): Record<Measure, number> {
  const of = (m: Measure) => median(rounds.map((r) => r[m] / r.ceiling));
  return { create: of('create'), view: of('view'), list: of('list') };
}

const limitOf = (baseline: Baseline, m: Measure) => baseline.ratios[m] * (1 + baseline.tolerance[m]);

function overBaseline(measured: Record<Measure, number>, baseline: Baseline): Measure[] {
  return MEASURES.filter((m) => measured[m] > limitOf(baseline, m));
}

function report(rounds: Round[], measured: Record<Measure, number>, baseline: Baseline | undefined): string {
  const lines = [
    `Speed gate: ${rounds.length} rounds; ${cpus().length} cores; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join('/')}`,
    `ceiling CPU ms per Create (median): ${median(rounds.map((r) => r.ceiling)).toFixed(3)}`,
  ];
  for (const m of MEASURES) {
    const cpu = median(rounds.map((r) => r[m])).toFixed(3);
    const against = baseline
      ? `; baseline ${baseline.ratios[m].toFixed(3)}, limit ${limitOf(baseline, m).toFixed(3)}, ${((measured[m] / baseline.ratios[m] - 1) * 100).toFixed(1)} %`
      : '';
    lines.push(`${m}: node CPU ms ${cpu}, ÷ ceiling (median of the rounds') ${measured[m].toFixed(3)}${against}`);
  }
  return lines.join('\n');
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** Writes the baseline's ratios, keeping its note and tolerances; says in the commit why they changed. */
function writeRatios(measured: Record<Measure, number>): void {
  const previous = JSON.parse(readFileSync(BASELINE, 'utf8')) as Baseline;
  const ratios = { create: round3(measured.create), view: round3(measured.view), list: round3(measured.list) };
  writeFileSync(BASELINE, `${JSON.stringify({ ...previous, ratios }, null, 2)}\n`);
  say(`wrote ${BASELINE}; say in the commit why the node's CPU changed`);
}

/** The medians of earlier runs' ratios, each from the JSON line a run prints on stdout. */
function baselineFromRuns(files: string[]): void {
  const runs = files.map((file) => {
    const line = readFileSync(file, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('{"ratios"'));
    if (line === undefined) throw new Error(`${file}: no gate result line`);
    return (JSON.parse(line) as { ratios: Record<Measure, number> }).ratios;
  });
  writeRatios({
    create: median(runs.map((r) => r.create)),
    view: median(runs.map((r) => r.view)),
    list: median(runs.map((r) => r.list)),
  });
}

interface Run {
  rounds: Round[];
  measured: Record<Measure, number>;
}

/** One gate run: a node and a ceiling of their own, warmed up, then the rounds (more to confirm a rise). */
async function gateRun(dist: string, baseline: Baseline | undefined): Promise<Run> {
  const work = mkdtempSync(join(tmpdir(), 'dataspace-gate-'));
  const sides: GateSide[] = [];
  try {
    const node = await gateNode(work, dist, say);
    sides.push(node);
    const ceiling = await gateCeiling(work, say);
    sides.push(ceiling);
    // Warm-up, not counted: V8 compiles the hot paths in the first seconds of load.
    await node.warm();
    await ceiling.warm();
    const rounds: Round[] = [];
    for (let i = 1; i <= ROUNDS; i++) rounds.push(await round(node, ceiling, i));
    let measured = ratios(rounds);
    if (baseline && overBaseline(measured, baseline).length > 0) {
      say(`over the baseline (${overBaseline(measured, baseline).join(', ')}): ${CONFIRM_ROUNDS} more rounds to confirm`);
      for (let i = 1; i <= CONFIRM_ROUNDS; i++) rounds.push(await round(node, ceiling, ROUNDS + i));
      measured = ratios(rounds);
    }
    process.stdout.write(`${report(rounds, measured, baseline)}\n`);
    process.stdout.write(`${JSON.stringify({ ratios: measured, rounds, loadavg: loadavg() })}\n`);
    return { rounds, measured };
  } finally {
    for (const side of sides) await side.stop();
    if (process.env.BENCH_KEEP !== '1') rmSync(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const writeBaseline = process.argv.includes('--write-baseline');
  const runFiles = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  if (writeBaseline && runFiles.length > 0) return baselineFromRuns(runFiles);
  const dist = process.env.GATE_NODE_DIST ?? resolve(projectRoot, 'dist');
  if (writeBaseline) return writeRatios((await gateRun(dist, undefined)).measured);
  const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')) as Baseline;
  let over = overBaseline((await gateRun(dist, baseline)).measured, baseline);
  if (over.length > 0) {
    // The ceiling's level drifts within a run (bench/results/2026-12-08-gate.md): one run in eight of
    // an unchanged node rose past a tolerance. A second run, with fresh processes, must show the same
    // measure risen before the gate fails; a node really slower rises in both.
    say(`over the baseline after confirming (${over.join(', ')}): a second run with fresh processes decides`);
    const again = overBaseline((await gateRun(dist, baseline)).measured, baseline);
    over = over.filter((m) => again.includes(m));
  }
  if (over.length > 0) {
    process.stdout.write(`FAIL: ${over.join(', ')} rose beyond its tolerance over bench/gate-baseline.json, in two runs\n`);
    process.exitCode = 1;
  } else process.stdout.write('PASS\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(2);
});
