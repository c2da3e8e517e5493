/**
 * SHACL engines side by side on this node's shapes and payloads: shacl-engine (what the node
 * runs) and rdf-validate-shacl. For each: validations per second and CPU milliseconds per
 * validation on four payloads (a rich border-trade consignment, the interface's field list, an
 * event, a document), start-up time, agreement with the node on the fixture corpus, and the W3C
 * SHACL core cases it passes.
 *
 * Usage: npm run build && node dist/bench/validate-engines.js [seconds per measurement = 2] [runs = 3]
 * Prints a markdown table (medians of the runs). rdf-validate-shacl is a devDependency.
 */
import { cpus, loadavg } from 'node:os';
import n3 from 'n3';
import SHACLValidator from 'rdf-validate-shacl';
import type { DatasetCore, NamedNode, Quad, Term } from '@rdfjs/types';
import { toQuads } from '../src/core/activities/parse.js';
import { shapesDir } from '../src/core/project-paths.js';
import { createPayloadValidator } from '../src/core/validation/index.js';
import { loadShapes } from '../src/core/validation/load-shapes.js';
import { createShaclEngine } from '../src/core/validation/shacl.js';
import { SmallDataset } from '../src/core/validation/small-dataset.js';
import { expectedConforms, readFixture, readFixtures, readShaclCoreSuite, reportResultKeys } from '../test/helpers/fixtures.js';

const SH = 'http://www.w3.org/ns/shacl#';

/** One engine as the node would drive it: payload quads in, verdict out. */
interface Candidate {
  name: string;
  startupMs: number;
  validate(quads: Quad[]): Promise<boolean>;
}

function toN3(quads: Quad[]): Quad[] {
  const { DataFactory: F } = n3;
  const term = (t: Term): Term =>
    t.termType === 'NamedNode'
      ? F.namedNode(t.value)
      : t.termType === 'BlankNode'
        ? F.blankNode(t.value)
        : t.termType === 'Literal'
          ? F.literal(t.value, t.language || F.namedNode(t.datatype.value))
          : F.defaultGraph();
  return quads.map((q) =>
    F.quad(
      term(q.subject) as Quad['subject'],
      term(q.predicate) as Quad['predicate'],
      term(q.object) as Quad['object'],
      term(q.graph) as Quad['graph'],
    ),
  );
}

function targetedShapes(shapes: DatasetCore): NamedNode[] {
  const found = new Map<string, NamedNode>();
  for (const q of shapes)
    if (q.predicate.value.startsWith(`${SH}target`) && q.subject.termType === 'NamedNode') found.set(q.subject.value, q.subject);
  return [...found.values()];
}

async function timed<T>(make: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await make();
  return { value, ms: performance.now() - started };
}

async function candidates(): Promise<Candidate[]> {
  const node = await timed(() => createPayloadValidator());
  const shapeQuads = loadShapes(shapesDir);

  const engineShapes = new SmallDataset(shapeQuads);
  const engine = await timed(() => createShaclEngine(engineShapes));
  const engineTargets = targetedShapes(engineShapes).map((t) => ({ terms: [t] }));

  const rvs = await timed(() => new SHACLValidator(new SmallDataset(shapeQuads)));
  // rdf-validate-shacl compiles lazily on the first validation: count that as start-up.
  const warm = await timed(() => rvs.value.validate(new SmallDataset()));
  void warm.value;

  return [
    {
      name: 'shacl-engine, as the node runs it (one-pass targets, readable report)',
      startupMs: node.ms,
      validate: async (quads) => (await node.value.validate(quads)).conforms,
    },
    {
      name: 'shacl-engine, engine target resolution, raw report',
      startupMs: engine.ms,
      validate: async (quads) => {
        const data = new SmallDataset(toN3(quads));
        return (await engine.value.validate({ dataset: data }, engineTargets)).conforms;
      },
    },
    {
      name: 'rdf-validate-shacl 0.6, raw report',
      startupMs: rvs.ms + warm.ms,
      validate: async (quads) => {
        const data = new SmallDataset(toN3(quads));
        return (await rvs.value.validate(data)).conforms;
      },
    },
  ];
}

interface Measure {
  perSecond: number;
  cpuMs: number;
}

async function measure(candidate: Candidate, quads: Quad[], seconds: number): Promise<Measure> {
  for (let i = 0; i < 50; i++) await candidate.validate(quads);
  const cpu = process.cpuUsage();
  const started = performance.now();
  let count = 0;
  while (performance.now() - started < seconds * 1000) {
    await candidate.validate(quads);
    count++;
  }
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { perSecond: (count / elapsed) * 1000, cpuMs: (used.user + used.system) / 1000 / count };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function agreement(candidate: Candidate, reference: Candidate): Promise<string> {
  let same = 0;
  let total = 0;
  for (const kind of ['valid', 'invalid'] as const) {
    for (const fixture of readFixtures(kind)) {
      const quads = await toQuads(fixture.json);
      total++;
      if ((await candidate.validate(quads)) === (await reference.validate(quads))) same++;
    }
  }
  return `${same}/${total}`;
}

async function w3cCore(run: (shapes: Quad[], data: Quad[]) => Promise<{ conforms: boolean; keys: string[] }>): Promise<string> {
  const cases = readShaclCoreSuite();
  let passed = 0;
  for (const testCase of cases) {
    try {
      const actual = await run(testCase.shapes, testCase.data);
      const expected = reportResultKeys(testCase.expected.dataset, testCase.expected.report);
      if (actual.conforms === expectedConforms(testCase) && JSON.stringify(actual.keys) === JSON.stringify(expected)) passed++;
    } catch {
      // An engine that throws on a case fails it.
    }
  }
  return `${passed}/${cases.length}`;
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 2);
  const runs = Number(process.argv[3] ?? 3);
  const payloads: [string, unknown][] = [
    ['rich consignment', readFixture('valid', 'create-rich-consignment.json')],
    ['spec-field consignment', readFixture('valid', 'create-consignment-spec-fields.json')],
    ['event (Add)', readFixture('valid', 'add-event-despatched.json')],
    ['document (Add)', readFixture('valid', 'add-document-commercial-invoice.json')],
  ];
  const parsed = await Promise.all(payloads.map(async ([name, json]) => ({ name, quads: await toQuads(json) })));
  const all = await candidates();
  for (const c of all) {
    for (const p of parsed) if (!(await c.validate(p.quads))) throw new Error(`${c.name} rejects the ${p.name}`);
  }

  const results = new Map<string, Measure[]>();
  for (let run = 0; run < runs; run++) {
    // Interleaved, so that load from other processes falls on every engine alike.
    for (const c of all) {
      for (const p of parsed) {
        const key = `${c.name}\u0000${p.name}`;
        results.set(key, [...(results.get(key) ?? []), await measure(c, p.quads, seconds)]);
      }
    }
  }

  const w3c = [
    await w3cCore(async (shapes, data) => {
      const report = await createShaclEngine(new SmallDataset(shapes)).validate({ dataset: new SmallDataset(data) });
      return { conforms: report.conforms, keys: reportResultKeys(report.dataset, report.term) };
    }),
    await w3cCore(async (shapes, data) => {
      const report = await new SHACLValidator(new SmallDataset(shapes)).validate(new SmallDataset(data));
      return { conforms: report.conforms, keys: reportResultKeys(report.dataset, report.term) };
    }),
  ];

  const lines: string[] = [];
  lines.push(
    `SHACL engines on this node's shapes (${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the end; ${runs} runs of ${seconds} s, medians; one process, one core)`,
  );
  lines.push('');
  lines.push(
    `| engine | ${parsed.map((p) => `${p.name} (${p.quads.length} quads): validations/s · CPU ms`).join(' | ')} | start-up ms | same verdict as the node on the corpus* | W3C SHACL core passed |`,
  );
  lines.push(`|---|${parsed.map(() => '---').join('|')}|---|---|---|`);
  for (const [i, c] of all.entries()) {
    const cells = parsed.map((p) => {
      const m = results.get(`${c.name}\u0000${p.name}`)!;
      return `${median(m.map((x) => x.perSecond)).toFixed(0)} · ${median(m.map((x) => x.cpuMs)).toFixed(2)}`;
    });
    const core = i === 2 ? w3c[1] : w3c[0];
    lines.push(`| ${c.name} | ${cells.join(' | ')} | ${c.startupMs.toFixed(0)} | ${await agreement(c, all[0]!)} | ${core} |`);
  }
  lines.push('');
  lines.push('\\* The raw engines see SHACL only: the node also refuses payloads that are not one tree (checked in code: two');
  lines.push('top-level objects, @included) and does not block on Warnings (an unlisted event typeCode), hence 3 fixtures apart.');
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
