import { parentPort, workerData } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import oxigraph from 'oxigraph';
import { GRAPHS, svc } from '../rdf/namespaces.js';
import { QueryBank } from '../queries/query-bank.js';
import { coverageBindings } from '../policy/coverage-subject.js';
import { OxigraphStore } from '../store/oxigraph-store.js';
import type { Change, ChangeOp } from '../store/quad-store.js';
import { readUnits } from '../store/recovery.js';
import { snapshotFileName, snapshotGenerations } from '../store/snapshot-files.js';
import { logFileName, logGenerations, readLog } from '../store/write-ahead-log.js';
import type { FromWorker, QueryMessage, ToWorker } from './sparql-worker-messages.js';

/**
 * The SPARQL endpoint's engine thread. It keeps two read-only copies: the data graphs (what queries run
 * over) and the policy graph with the part of the metadata graph that decides which data graphs a
 * caller may see, in separate stores, so no query can reach the node's own graphs whatever its dataset.
 * It starts from the data dir (newest snapshot and the logs after it, read only), then follows every
 * change the node commits. Being a thread of its own, it can be terminated when a query runs past the
 * time limit.
 */
const port = parentPort!;
const { dataDir } = workerData as { dataDir: string };
const queries = new QueryBank();

let data = new OxigraphStore();
let catalog = new OxigraphStore();
/** Names of the graphs in `data`; a name may outlive its graph (an over-count only costs speed). */
let dataGraphs = new Set<string>();
let generation = 0;
let buffered: Change[] | undefined = [];

const isData = (graph: string): boolean => graph.startsWith('urn:uuid:');
/**
 * The metadata the catalog keeps: only the predicates the visibility query names, read from the
 * query itself, so a predicate added there is kept here too. The rest of the metadata graph is
 * bookkeeping it never reads: at 100k consignments it keeps 31 % of that graph's 1.7 M quads.
 */
const CATALOG_PREDICATES = new Set([...queries.text('policy/visible-graphs').matchAll(/\bsvc:(\w+)/g)].map((m) => `<${svc(m[1])}>`));
// A quad line: subject, predicate, object, graph. A triple (default graph) does not match.
const QUAD_LINE = /^(\S+) (<[^>]*>) (.+) <([^>]*)> \.$/;

/** Splits N-Quads by destination; lines of other graphs (registry, log, outbox, default) are dropped. */
function split(nquads: string): { data: string; catalog: string } {
  const toData: string[] = [];
  const toCatalog: string[] = [];
  for (const line of nquads.split('\n')) {
    const match = QUAD_LINE.exec(line);
    if (!match) continue;
    const graph = match[4];
    if (isData(graph)) {
      toData.push(line);
      // A copy, not the match: V8 keeps a substring as a view of the whole chunk it was cut from, so
      // keeping the match kept every 8 MB chunk of the snapshot alive (1 GB of heap at 100k consignments).
      if (!dataGraphs.has(graph)) dataGraphs.add(Buffer.from(graph).toString());
    } else if (graph === GRAPHS.policies || (graph === GRAPHS.metadata && CATALOG_PREDICATES.has(match[2]))) {
      toCatalog.push(line);
    }
  }
  const text = (lines: string[]) => (lines.length === 0 ? '' : `${lines.join('\n')}\n`);
  return { data: text(toData), catalog: text(toCatalog) };
}

function apply(change: Change): void {
  const dataOps: ChangeOp[] = [];
  const catalogOps: ChangeOp[] = [];
  for (const op of change.ops) {
    if (op.op === 'insert') {
      const parts = split(op.nquads);
      if (parts.data) dataOps.push({ op: 'insert', nquads: parts.data });
      if (parts.catalog) catalogOps.push({ op: 'insert', nquads: parts.catalog });
    } else if (isData(op.graph)) {
      dataOps.push(op);
      if (op.op === 'dropGraph') dataGraphs.delete(op.graph);
    } else if (op.graph === GRAPHS.policies || op.graph === GRAPHS.metadata) catalogOps.push(op);
  }
  // In the order of the change: a drop and a re-insert of the same graph must keep their order.
  data.apply({ ops: dataOps });
  catalog.apply({ ops: catalogOps });
  generation += 1;
}

/** The newest snapshot, read in chunks cut only between units (so no blank node is split), and split by store. */
function loadSnapshotFile(path: string): void {
  readUnits(path, (bytes) => {
    const parts = split(bytes.toString('utf8'));
    if (parts.data) data.loadTrusted(parts.data);
    if (parts.catalog) catalog.loadTrusted(parts.catalog);
  });
}

function recoverOnce(): void {
  const base = snapshotGenerations(dataDir).at(-1);
  if (base !== undefined) loadSnapshotFile(join(dataDir, snapshotFileName(base)));
  for (const log of logGenerations(dataDir).filter((g) => base === undefined || g >= base)) {
    const path = join(dataDir, logFileName(log));
    const { changes } = readLog(path);
    // A newer snapshot may have removed this log meanwhile: then start again from that snapshot.
    if (!existsSync(path)) throw new Error(`${path} was removed while it was read`);
    for (const change of changes) apply(change);
  }
}

function recover(): number {
  for (let attempt = 1; ; attempt++) {
    try {
      recoverOnce();
      break;
    } catch (error) {
      if (attempt >= 5) throw error;
      data = new OxigraphStore();
      catalog = new OxigraphStore();
      dataGraphs = new Set();
    }
  }
  // Changes committed while the disk was read; re-applying one already on disk leaves the same state.
  for (const change of buffered ?? []) apply(change);
  buffered = undefined;
  return data.resync() + catalog.resync();
}

interface Visible {
  generation: number;
  graphs: Set<string>;
  /** The caller may see every data graph held: the query needs no list of graphs. */
  everything: boolean;
  nodes?: oxigraph.NamedNode[];
}

/** Visible graphs per caller, for the current generation only. */
const visibleCache = new Map<string, Visible>();

function visibleTo(message: QueryMessage): Visible {
  const key = JSON.stringify(message.principal);
  const hit = visibleCache.get(key);
  if (hit && hit.generation === generation) return hit;
  const principal = { email: '', org: { ...message.principal, name: '' } };
  const rows = catalog.store.query(queries.bind('policy/visible-graphs', coverageBindings(principal))) as Map<string, oxigraph.Term>[];
  const graphs = new Set(rows.map((row) => row.get('graph')!.value));
  let everything = graphs.size === dataGraphs.size;
  if (everything) for (const g of dataGraphs) if (!graphs.has(g)) everything = false;
  const visible: Visible = { generation, graphs, everything };
  if (visibleCache.size > 64) visibleCache.clear();
  visibleCache.set(key, visible);
  return visible;
}

function datasetOptions(message: QueryMessage): Record<string, unknown> {
  const visible = visibleTo(message);
  const named = (graphs: string[]) => [...new Set(graphs)].filter((g) => visible.graphs.has(g)).map((g) => oxigraph.namedNode(g));
  // FROM / FROM NAMED or the protocol's graph parameters choose among the visible graphs only.
  if (message.requested) return { default_graph: named(message.requested.default), named_graphs: named(message.requested.named) };
  // The data store holds data graphs only, all of them visible: its own union is exactly the dataset.
  if (visible.everything) return { use_default_graph_as_union: true };
  // Both lists, always: with the default graph alone, GRAPH ?g would range over every graph.
  visible.nodes ??= [...visible.graphs].map((g) => oxigraph.namedNode(g));
  return { default_graph: visible.nodes, named_graphs: visible.nodes };
}

port.on('message', (message: ToWorker) => {
  let reply: FromWorker;
  switch (message.type) {
    case 'change':
      if (buffered) buffered.push(message.change);
      else apply(message.change);
      return;
    case 'recover':
      try {
        reply = { type: 'ready', quads: recover() };
      } catch (error) {
        reply = { type: 'failed', message: (error as Error).message };
      }
      break;
    case 'query':
      try {
        const text = data.store.query(message.query, { ...datasetOptions(message), results_format: message.format }) as string;
        reply = { type: 'result', id: message.id, text };
      } catch (error) {
        // A trap leaves the WebAssembly memory in an unknown state: the thread must not answer again.
        const fatal = error instanceof WebAssembly.RuntimeError || error instanceof RangeError;
        reply = { type: 'error', id: message.id, message: (error as Error).message, fatal };
      }
      break;
  }
  port.postMessage(reply);
});
