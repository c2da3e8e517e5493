/**
 * Payload reads per CPU second on one core: what a reader thread does per Create (size limits,
 * JSON-LD → RDF, stray-data check, SHACL), in process, on a fresh copy of each body so that no
 * string or object of one read is reused warm by the next (bench/validations.ts reuses its quads).
 *
 * Usage: node dist/bench/reads.js [seconds=3] [runs=2] [dist=the project's dist]
 * Prints one JSON line: {"dist": ..., "perCpuSecond": [...], "cpuMsPerRead": [...]}.
 * Give another build's dist (e.g. an older commit's) to compare builds in the same minute.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { activity, consignment, RUN } from './payloads.js';
import { BENCH_USERS } from './users.js';

interface Reader {
  read(body: unknown): Promise<unknown>;
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 3);
  const runs = Number(process.argv[3] ?? 2);
  const dist = resolve(process.argv[4] ?? resolve(import.meta.dirname, '..'));
  const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(resolve(dist, path)).href)) as T;
  const { createPayloadValidator } = await load<{ createPayloadValidator(): Promise<unknown> }>('src/core/validation/index.js');
  const { InlineReader } = await load<{ InlineReader: new (check: unknown) => Reader }>('src/core/activities/payload-reader.js');
  const { ShapeCheck } = await load<{ ShapeCheck: new (validator: unknown) => unknown }>('src/core/activities/shape-check.js');
  const reader = new InlineReader(new ShapeCheck(await createPayloadValidator()));
  const bodies = Array.from({ length: 200 }, (_, n) =>
    JSON.stringify(activity('Create', BENCH_USERS.forwarder.org, consignment(n, RUN.validations))),
  );
  for (let i = 0; i < 1000; i++) await reader.read(JSON.parse(bodies[i % bodies.length]!));
  const perCpuSecond: number[] = [];
  const cpuMsPerRead: number[] = [];
  for (let run = 0; run < runs; run++) {
    let count = 0;
    const started = performance.now();
    const cpu = process.cpuUsage();
    while (performance.now() - started < seconds * 1000) {
      await reader.read(JSON.parse(bodies[count % bodies.length]!));
      count++;
    }
    const used = process.cpuUsage(cpu);
    perCpuSecond.push(Math.round(count / ((used.user + used.system) / 1e6)));
    cpuMsPerRead.push(Number(((used.user + used.system) / 1e3 / count).toFixed(3)));
  }
  process.stdout.write(`${JSON.stringify({ dist, perCpuSecond, cpuMsPerRead })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
