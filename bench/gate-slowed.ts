/**
 * `node dist/bench/gate-slowed.js [cpuMsPerCreate=0.8]`: a deliberately slowed node for proving the
 * speed gate (bench/README.md). Copies the built bundle to dist/gate-slowed/bundle/main.js with a fixed
 * amount of CPU work (a multiply-xor loop that allocates nothing, so it adds no garbage for later
 * requests to collect; sized here to `cpuMsPerCreate` on this machine) put at the top of
 * `Ingest.receive` for Create activities only; prints the directory to give the gate as GATE_NODE_DIST.
 * Nothing of it is in the sources: the slowdown exists only in that copy, under dist/ (not versioned).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../src/core/project-paths.js';

const cpuMs = Number(process.argv[2] ?? 0.8);
const source = resolve(projectRoot, 'dist', 'bundle', 'main.js');
const target = resolve(projectRoot, 'dist', 'gate-slowed');

/** The work put into the Create path, written out again as text below: keep the two the same. */
function burn(rounds: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < rounds; i++) h = Math.imul(h ^ i, 0x01000193);
  return h;
}

/**
 * Rounds for `ms` of CPU: the median of 15 timings, as the gate takes medians under the same load
 * (the fastest timing would size it for an idle machine, and the gate would see less than asked).
 */
function roundsFor(ms: number): number {
  const probe = 1_000_000;
  const timings: number[] = [];
  let sink = 0;
  for (let i = 0; i < 15; i++) {
    const start = process.cpuUsage();
    sink ^= burn(probe);
    const used = process.cpuUsage(start);
    timings.push((used.user + used.system) / 1000);
  }
  if (sink === 42) process.stderr.write('\n');
  timings.sort((a, b) => a - b);
  return Math.max(1, Math.round((probe * ms) / timings[7]!));
}

const rounds = roundsFor(cpuMs);
const anchor = 'async receive(body, principal) {';
const bundle = readFileSync(source, 'utf8');
if (bundle.split(anchor).length !== 2) throw new Error(`expected one "${anchor}" in ${source}`);
const slowed = bundle.replace(
  anchor,
  `${anchor}
        if (body?.type === "Create") {
          let h = 0x811c9dc5;
          for (let i = 0; i < ${rounds}; i++) h = Math.imul(h ^ i, 0x01000193);
          if (h === 42) process.stderr.write("\\n");
        }`,
);
mkdirSync(join(target, 'bundle'), { recursive: true });
writeFileSync(join(target, 'bundle', 'main.js'), slowed);
process.stderr.write(`${rounds} multiply-xor rounds (~${cpuMs} ms of CPU here) at the top of Ingest.receive for a Create\n`);
process.stdout.write(`${target}\n`);
