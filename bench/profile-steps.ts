/**
 * A Create's CPU split into the inbox's steps, from V8 CPU profiles (`node --cpu-prof`, one file per
 * thread: the main thread and each reader thread) of the unbundled node, over a window of monotonic
 * time: V8 stamps samples with the same CLOCK_MONOTONIC microseconds as `process.hrtime`, so the bench
 * process marks the window of its measured Creates and samples outside it (start-up, warm-up) are left
 * out. A sample belongs to the step of the innermost project file on its stack (dist/src/…; src/core/util/ is
 * the steps' shared plumbing and passes to its caller); with none, to the library or runtime at its leaf.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The steps in the inbox's order; the first pattern matching a project file's path names its step. */
export const STEPS: [string, RegExp][] = [
  [
    'HTTP in (express, body, limits)',
    /src\/http\/(server-|body-|json-safety|security-headers|cors|own-origins|server-limits)|src\/app\.js/,
  ],
  ['authentication', /src\/auth\/|src\/http\/(authenticate|token-cookie)|src\/accounts\//],
  [
    'envelope',
    /src\/activities\/(envelope|limits|payload-forms|roles|item-identifiers|item-order|idempotency|code-forms|field-types|context-rules)\.js/,
  ],
  ['reader thread (hand-off)', /src\/activities\/(reader-pool|reader-thread|reader-messages|payload-reader)\.js|src\/rdf\/quad-wire\.js/],
  ['JSON-LD → RDF', /src\/rdf\/|src\/activities\/parse\.js/],
  ['SHACL', /src\/validation\/|src\/activities\/(shape-check|validate-payload)\.js/],
  ['store lookups (reads on the write path)', /src\/store\/oxigraph\/oxigraph-reads\.js/],
  ['quota charge', /src\/quotas\//],
  ['change journal', /src\/changes\/|src\/store\/change-feed\.js/],
  ['catalog', /src\/catalog\//],
  ['signals', /src\/notify\//],
  ['decide (handlers, lock)', /src\/activities\//],
  ['commit (store, log)', /src\/store\//],
  ['answer, access log', /src\/(http|ops|views|policy|pages)\//],
];

/** What a sample with no project file on its stack is: the library or runtime part at its leaf. */
const LEAVES: [string, RegExp][] = [
  ['JSON-LD → RDF', /node_modules\/(jsonld|rdf-canonize|n3|@digitalbazaar)\//],
  ['SHACL', /node_modules\/(shacl-engine|rdf-validate-shacl|grapoi|@rdfjs)\//],
  ['commit (store, log)', /node_modules\/(oxigraph|pg|undici)\//],
  [
    'HTTP in (express, body, limits)',
    /node_modules\/(express|router|body-parser|raw-body|iconv-lite|qs|type-is|helmet|cors|cookie-parser)\//,
  ],
  [
    'answer, access log',
    /node_modules\/(pino|sonic-boom|on-finished|finalhandler|send)\/|node:_http|node:net|node:internal\/(http|stream|streams)/,
  ],
  ['GC', /^\(garbage collector\)$/],
];

const OTHER = 'other (runtime, timers, unattributed)';

/** "innermost project function (file) ← leaf function", what STEPS_DETAIL=<step> lists a step's time by. */
function detailOf(stack: ProfileNode[]): string {
  const own = stack.find((n) => n.callFrame.url.includes('/dist/src/') && !n.callFrame.url.includes('/dist/src/core/util/'));
  const name = (n: ProfileNode | undefined) =>
    n ? `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/dist\/|^.*node_modules\//, '')}` : '–';
  return `${name(own)} ← ${name(stack[0])}`;
}

function stepOf(stack: ProfileNode[]): string | undefined {
  const leaf = stack[0];
  if (leaf?.callFrame.functionName === '(idle)') return undefined;
  for (const node of stack) {
    const url = node.callFrame.url;
    if (!url.includes('/dist/src/') || url.includes('/dist/src/core/util/')) continue;
    for (const [step, pattern] of STEPS) if (pattern.test(url)) return step;
    return OTHER;
  }
  for (const node of stack) {
    const key = node.callFrame.url || node.callFrame.functionName;
    for (const [step, pattern] of LEAVES) if (pattern.test(key)) return step;
  }
  return OTHER;
}

/** Sampled ms by step over [fromUs, toUs] of monotonic time, summed over every profile in `dir`. */
export function stepsIn(dir: string, fromUs: number, toUs: number, detail = process.env.STEPS_DETAIL): Map<string, number> {
  const out = new Map<string, number>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const memo = new Map<number, string | undefined>();
    let t = profile.startTime;
    profile.samples.forEach((id, i) => {
      const dt = profile.timeDeltas[i] ?? 0;
      t += dt;
      if (t < fromUs || t > toUs) return;
      if (!memo.has(id)) {
        const stack: ProfileNode[] = [];
        for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) stack.push(byId.get(cur)!);
        memo.set(id, stepOf(stack));
      }
      const step = memo.get(id);
      if (step !== undefined) out.set(step, (out.get(step) ?? 0) + dt / 1000);
      if (step !== undefined && step === detail) {
        const stack: ProfileNode[] = [];
        for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) stack.push(byId.get(cur)!);
        const key = `  ${step}: ${detailOf(stack)}`;
        out.set(key, (out.get(key) ?? 0) + dt / 1000);
      }
    });
  }
  return out;
}

/** The steps in the inbox's order, then the rest. */
export const STEP_ORDER = [...STEPS.map(([s]) => s), 'GC', OTHER];
