/**
 * `node dist/bench/memory.js <dataDir> [part]`: where the memory of a node holding a data dir goes
 * (docs/performance.md, Memory). Parts (all by default, or one of them):
 *
 * - `store`: opens the data dir as the node does (image or snapshot, then the logs) in this process and
 *   prints the main store's WebAssembly memory, the JS heap, the quads by graph kind and, for the node's
 *   own graphs, by predicate; then loads each kind alone into a fresh WebAssembly instance, 1 MB of
 *   N-Quads at a time, to give the bytes of memory a quad of that kind takes.
 * - `resident`: starts the node on the data dir (and on a second one, when given) and splits its RSS into
 *   the resident part of each Oxigraph instance's WebAssembly memory (the mapping /proc/<pid>/smaps
 *   lists at the size `dataspace_store_memory_bytes` reports), the JS heap (prom-client's gauges) and the
 *   rest; with two dirs, also each part's growth per 10k consignments between them.
 *   `node dist/bench/memory.js <dataDir> resident <consignments> [<dataDir2> <consignments2>]`
 * - `threads`: starts the node on the data dir with 1 and then 2 SPARQL engine threads and prints its
 *   RSS (threads are in the process, so it is the whole process group) before the first SPARQL query,
 *   once every engine thread is ready, and after the engine has released them while idle.
 *
 * Use a bench data dir (bench/bulk-seed.ts): `store` recovers it as a node would (dropping leftover
 * temporary files). Prints markdown tables with the load average (the machine is shared).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../src/core/logger.js';
import { GRAPHS } from '../src/core/rdf/namespaces.js';
import { newOxigraphInstance } from '../src/adapters/oxigraph/wasm/oxigraph-instance.js';
import { openEmbeddedStore } from '../src/adapters/oxigraph/recovery/recovery.js';
import { METRICS_TOKEN } from './memory-rows.js';
import { residentBySize } from './memory-map.js';
import { freePort, startServer, NODE_MAIN } from './processes.js';
import { logCount, startEngineThreads } from './engine-threads.js';
import { BENCH_SEED } from './users.js';

const MB = 1024 * 1024;
const mb = (bytes: number): string => (bytes / MB).toFixed(1);
const load = (): string => loadavg()[0]!.toFixed(1);
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
const say = (text: string) => process.stderr.write(`[memory] ${text}\n`);

type Kind = 'data graphs' | 'metadata' | 'activity log' | 'policies, registry, outbox, default';

function kindOf(graph: string): Kind {
  if (graph.startsWith('urn:uuid:')) return 'data graphs';
  if (graph === GRAPHS.metadata) return 'metadata';
  if (graph === GRAPHS.activityLog) return 'activity log';
  return 'policies, registry, outbox, default';
}

// A quad line: subject, predicate, object, graph (as the engine thread splits them). A triple does not match.
const QUAD_LINE = /^(\S+) (<[^>]*>) (.+) <([^>]*)> \.$/;

function storePart(dataDir: string): string {
  const rssBefore = process.memoryUsage().rss;
  const { store } = openEmbeddedStore(dataDir, false, createLogger('warn'), { readOnly: false, images: true });
  global.gc?.();
  const usage = process.memoryUsage();
  const wasmBytes = store.instance?.wasm.memory.buffer.byteLength ?? NaN;
  // The activity log's quads from its instance apart, when the store keeps one (graph-apart.ts).
  const text = store.stores.map((held) => held.dump({ format: 'application/n-quads' })).join('');
  const byKind = new Map<Kind, string[]>();
  const byPredicate = new Map<string, number>();
  let consignments = 0;
  let literalBytes = 0;
  for (const line of text.split('\n')) {
    if (!line) continue;
    const match = QUAD_LINE.exec(line);
    const kind = kindOf(match?.[4] ?? '');
    let lines = byKind.get(kind);
    if (!lines) byKind.set(kind, (lines = []));
    lines.push(line);
    if (match && (kind === 'metadata' || kind === 'activity log')) {
      const predicate = match[2]!
        .replace(/^<https:\/\/w3id.org\/supply-chain-dataspace\/ns#|^<http:\/\/www.w3.org\/1999\/02\/22-rdf-syntax-ns#/, '')
        .replace(/>$/, '');
      const key = `${kind}: ${predicate}`;
      byPredicate.set(key, (byPredicate.get(key) ?? 0) + 1);
      if (predicate === 'type' && line.includes('ns#ConsignmentRecord>')) consignments++;
      const literal = /"((?:[^"\\]|\\.)*)"/.exec(line)?.[1];
      if (literal !== undefined && literal.length > 100) literalBytes += literal.length;
    }
  }
  const quads = [...byKind.values()].reduce((n, lines) => n + lines.length, 0);
  const out: string[] = [
    `Main store of ${dataDir}: ${quads.toLocaleString('en-GB')} quads, ${consignments.toLocaleString('en-GB')} consignments (${(quads / consignments).toFixed(1)} quads each); load ${load()}`,
    '',
    `| what | MB |`,
    '|---|---:|',
    `| RSS of this process before / after opening the store | ${mb(rssBefore)} / ${mb(usage.rss)} |`,
    `| the store's WebAssembly memory (its own instance) | ${mb(wasmBytes)} |`,
    `| the activity log's WebAssembly memory (its instance apart) | ${mb(store.apart?.instance?.wasm.memory.buffer.byteLength ?? 0)} |`,
    `| of which per quad it holds (bytes, headroom and freed space included) | ${(wasmBytes / (store.apart ? quads - (byKind.get('activity log')?.length ?? 0) : quads)).toFixed(0)} |`,
    `| JS heap used | ${mb(usage.heapUsed)} |`,
    `| long literals (> 100 characters) in the node's own graphs | ${mb(literalBytes)} |`,
    '',
    '| graph kind | quads | per consignment | share | memory of a fresh instance holding only these, MB | bytes per quad |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  const fresh = newOxigraphInstance();
  const baseline = fresh?.wasm.memory.buffer.byteLength ?? 0;
  for (const [kind, lines] of byKind) {
    // A fresh instance per kind, loaded 1 MB at a time so the text copied in does not count.
    const instance = newOxigraphInstance();
    let bytes = NaN;
    if (instance) {
      const kindStore = new instance.ox.Store();
      for (let i = 0; i < lines.length;) {
        let size = 0;
        const chunk: string[] = [];
        while (i < lines.length && size < MB) {
          const line = lines[i++]!;
          chunk.push(line);
          size += line.length;
        }
        kindStore.load(`${chunk.join('\n')}\n`, { format: 'application/n-quads', lenient: true, no_transaction: true });
      }
      bytes = instance.wasm.memory.buffer.byteLength - baseline;
    }
    out.push(
      `| ${kind} | ${lines.length.toLocaleString('en-GB')} | ${(lines.length / consignments).toFixed(1)} | ${((lines.length / quads) * 100).toFixed(0)} % | ${mb(bytes)} | ${(bytes / lines.length).toFixed(0)} |`,
    );
  }
  out.push('', '| node graph: predicate | quads | per consignment |', '|---|---:|---:|');
  for (const [key, n] of [...byPredicate].sort((a, b) => b[1] - a[1]))
    out.push(`| ${key} | ${n.toLocaleString('en-GB')} | ${(n / consignments).toFixed(2)} |`);
  return out.join('\n');
}

async function threadsPart(dataDir: string): Promise<string> {
  const rows = [
    '| SPARQL threads | RSS, store loaded, no SPARQL query yet, MB | RSS with every engine thread ready, MB | per thread MB | RSS after the idle release, MB | load |',
    '|---:|---:|---:|---:|---:|---|',
  ];
  for (const threads of [1, 2]) {
    const port = await freePort();
    const logFile = join(dataDir, `..`, `memory-node-${threads}-${Date.now()}.log`);
    const server = await startServer({
      name: `node-${threads}`,
      script: NODE_MAIN,
      port,
      logFile,
      readyPath: '/authentication/login',
      env: {
        NODE_ENV: 'production',
        DATASPACE_SEED: BENCH_SEED,
        DATASPACE_DATA_DIR: dataDir,
        DATASPACE_FSYNC: 'on',
        DATASPACE_MAX_QUADS: '0',
        DATASPACE_SPARQL_THREADS: String(threads),
        DATASPACE_SPARQL_IDLE_MS: '15000',
        DATASPACE_LOG: 'info',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATASPACE_BASE_URL: `http://127.0.0.1:${port}`,
      },
    });
    try {
      await sleep(3000);
      const before = server.rssMb();
      say(`${threads} thread(s): ${await startEngineThreads(server.url, logFile, threads)}`);
      await sleep(3000);
      const ready = server.rssMb();
      for (let waited = 0; logCount(logFile, /SPARQL engine threads released while idle/g) < 1 && waited < 120_000; waited += 500)
        await sleep(500);
      await sleep(5000);
      const released = server.rssMb();
      rows.push(
        `| ${threads} | ${before.toFixed(0)} | ${ready.toFixed(0)} | ${((ready - before) / threads).toFixed(0)} | ${released.toFixed(0)} | ${load()} |`,
      );
      say(rows.at(-1)!);
    } finally {
      await server.stop();
    }
  }
  return rows.join('\n');
}

interface ResidentSplit {
  rss: number;
  /** Resident MiB of each Oxigraph instance's WebAssembly memory, and its size. */
  instances: Map<string, { resident: number; size: number }>;
  heapUsed: number;
  heapTotal: number;
}

async function residentSplit(dataDir: string): Promise<ResidentSplit> {
  const port = await freePort();
  const server = await startServer({
    name: 'node-resident',
    script: NODE_MAIN,
    port,
    logFile: join(dataDir, '..', `memory-resident-${Date.now()}.log`),
    readyPath: '/authentication/login',
    env: {
      NODE_ENV: 'production',
      DATASPACE_SEED: BENCH_SEED,
      DATASPACE_DATA_DIR: dataDir,
      DATASPACE_FSYNC: 'on',
      DATASPACE_METRICS_TOKEN: METRICS_TOKEN,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATASPACE_BASE_URL: `http://127.0.0.1:${port}`,
    },
  });
  try {
    // Past the start's own garbage: the read index loads after the first answer, and V8 collects when idle.
    await sleep(15_000);
    const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const gauge = (pattern: RegExp): number[] => [...text.matchAll(pattern)].map((m) => Number(m[1]));
    const mappings = residentBySize(server.pid);
    const instances = new Map<string, { resident: number; size: number }>();
    for (const [, name = '', bytes = ''] of text.matchAll(/^dataspace_store_memory_bytes\{instance="([^"]+)"\} (\d+)$/gm)) {
      instances.set(name, { resident: mappings.get(Number(bytes)) ?? NaN, size: Number(bytes) / MB });
    }
    return {
      rss: server.rssMb(),
      instances,
      heapUsed: (gauge(/^nodejs_heap_size_used_bytes (\d+)$/gm)[0] ?? NaN) / MB,
      heapTotal: (gauge(/^nodejs_heap_size_total_bytes (\d+)$/gm)[0] ?? NaN) / MB,
    };
  } finally {
    await server.stop();
  }
}

async function residentPart(dirs: { dataDir: string; consignments: number }[]): Promise<string> {
  const splits: ResidentSplit[] = [];
  for (const { dataDir } of dirs) splits.push(await residentSplit(dataDir));
  const names = [...(splits[0]?.instances.keys() ?? [])];
  const parts = (split: ResidentSplit): [string, number][] => {
    const wasm = names.map((name): [string, number] => [`Oxigraph memory, ${name} (resident)`, split.instances.get(name)?.resident ?? NaN]);
    const wasmTotal = wasm.reduce((sum, [, mib]) => sum + mib, 0);
    return [
      ...wasm,
      ['JS heap (committed; used in brackets)', split.heapTotal],
      ['the rest (code, threads, buffers)', split.rss - wasmTotal - split.heapTotal],
      ['RSS', split.rss],
    ];
  };
  const header = `| Part, MiB | ${dirs.map((d) => `${d.consignments.toLocaleString('en-GB')} consignments`).join(' | ')} |${dirs.length > 1 ? ' per 10k consignments |' : ''}`;
  const rows = [header, `|---|${dirs.map(() => '---:|').join('')}${dirs.length > 1 ? '---:|' : ''}`];
  const columns = splits.map((split) => ({ split, parts: parts(split) }));
  const [firstColumn] = columns;
  const lastColumn = columns.at(-1);
  const first = dirs[0];
  const last = dirs.at(-1);
  if (!firstColumn || !lastColumn || !first || !last) throw new Error('no data dir to measure');
  firstColumn.parts.forEach(([label], i) => {
    // Every column lists the same parts in the same order.
    const value = (column: typeof firstColumn) => column.parts[i]![1];
    const values = columns.map((c) =>
      i === firstColumn.parts.length - 3 ? `${value(c).toFixed(0)} (${c.split.heapUsed.toFixed(0)})` : value(c).toFixed(0),
    );
    const slope =
      dirs.length > 1
        ? ` ${(((value(lastColumn) - value(firstColumn)) / (last.consignments - first.consignments)) * 10_000).toFixed(1)} |`
        : '';
    rows.push(`| ${label} | ${values.join(' | ')} |${slope}`);
  });
  rows.push(
    '',
    `Sizes of the WebAssembly memories (MiB): ${splits.map((s) => names.map((n) => `${n} ${s.instances.get(n)?.size.toFixed(0)}`).join(', ')).join('; ')}. Load ${load()}.`,
  );
  return rows.join('\n');
}

async function main(): Promise<void> {
  const [dataDir, part, ...rest] = process.argv.slice(2);
  if (!dataDir)
    throw new Error('usage: node dist/bench/memory.js <dataDir> [store|threads|resident <consignments> [<dataDir2> <consignments2>]]');
  if (part === 'resident') {
    const dirs = [{ dataDir, consignments: Number(rest[0]) }];
    if (rest[1]) dirs.push({ dataDir: rest[1], consignments: Number(rest[2]) });
    if (dirs.some((d) => !(d.consignments > 0))) throw new Error('resident: give each data dir its number of consignments');
    console.log(`${await residentPart(dirs)}\n`);
    return;
  }
  if (!part || part === 'store') console.log(`${storePart(dataDir)}\n`);
  if (!part || part === 'threads') console.log(`${await threadsPart(dataDir)}\n`);
}

await main();
