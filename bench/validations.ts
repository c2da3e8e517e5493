/**
 * Validations per second: the node's SHACL payload validator on one core, over the quads of the
 * benchmark's Create activities (parsed beforehand, so only validation is timed).
 *
 * Usage: node dist/bench/validations.js <seconds> <runs>
 * Prints one JSON line: {"perSecond": [...], "perCpuSecond": [...]} (one entry a run) or {"unavailable": "..."}.
 */
import { toQuads } from '../src/core/activities/parse.js';
import { activity, consignment, RUN } from './payloads.js';
import { BENCH_USERS } from './users.js';
import { cycled } from './pick.js';

interface Validator {
  validate(quads: unknown[]): Promise<{ conforms: boolean; results: unknown[] }>;
}

async function loadValidator(): Promise<Validator | string> {
  // Imported by name at run time: the validator is another component's and may not exist yet.
  const specifier = '../src/core/validation/index.js';
  try {
    const module = (await import(specifier)) as { createPayloadValidator?: () => Promise<Validator> };
    if (!module.createPayloadValidator) return 'src/core/validation has no createPayloadValidator';
    return await module.createPayloadValidator();
  } catch (error) {
    return `no validator: ${(error as Error).message}`;
  }
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 2);
  const runs = Number(process.argv[3] ?? 3);
  const validator = await loadValidator();
  if (typeof validator === 'string') {
    process.stdout.write(`${JSON.stringify({ unavailable: validator })}\n`);
    return;
  }
  const payloads = await Promise.all(
    Array.from({ length: 200 }, (_, n) => toQuads(activity('Create', BENCH_USERS.forwarder.org, consignment(n, RUN.validations)))),
  );
  const first = await validator.validate(cycled(payloads, 0));
  if (!first.conforms) throw new Error(`the bench payload does not conform: ${JSON.stringify(first.results).slice(0, 2000)}`);
  for (let i = 0; i < 200; i++) await validator.validate(cycled(payloads, i));
  const perSecond: number[] = [];
  const perCpuSecond: number[] = [];
  for (let run = 0; run < runs; run++) {
    let count = 0;
    const started = performance.now();
    const cpu = process.cpuUsage();
    while (performance.now() - started < seconds * 1000) {
      await validator.validate(cycled(payloads, count));
      count++;
    }
    const used = process.cpuUsage(cpu);
    perSecond.push((count / (performance.now() - started)) * 1000);
    perCpuSecond.push(count / ((used.user + used.system) / 1e6));
  }
  process.stdout.write(`${JSON.stringify({ perSecond, perCpuSecond })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
