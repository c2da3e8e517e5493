import { parentPort, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import oxigraph from 'oxigraph';
import { GRAPHS } from '../rdf/namespaces.js';
import { OxigraphStore } from '../store/oxigraph-store.js';
import type { Change, ChangeOp } from '../store/quad-store.js';
import { loadSnapshot } from '../store/recovery.js';
import { snapshotFileName, snapshotGenerations } from '../store/snapshot.js';
import { logFileName, logGenerations, readLog } from '../store/write-ahead-log.js';
import type { ToWorker, FromWorker } from './sparql-worker-messages.js';

/**
 * The SPARQL endpoint's engine thread: a read-only copy of the node's data graphs, so a query that runs
 * away can be stopped (the thread is terminated) without stopping the node. It starts from the data
 * dir (the newest snapshot and the logs after it, read only) and then follows every change the node
 * commits. The node's own graphs are left out: queries never run over them.
 */
const port = parentPort!;
const { dataDir } = workerData as { dataDir: string };
let store = new OxigraphStore();
let buffered: Change[] | undefined = [];

const SYSTEM_GRAPH = 'urn:dataspace:graph:';
const SYSTEM_LINE = /<urn:dataspace:graph:[^>]*> \.$/;

function dataOnly(op: ChangeOp): ChangeOp | undefined {
  if (op.op !== 'insert') return op.graph.startsWith(SYSTEM_GRAPH) ? undefined : op;
  const lines = op.nquads.split('\n').filter((line) => line.length > 0 && !SYSTEM_LINE.test(line));
  return lines.length === 0 ? undefined : { op: 'insert', nquads: `${lines.join('\n')}\n` };
}

function apply(change: Change): void {
  store.apply({ ops: change.ops.map(dataOnly).filter((op): op is ChangeOp => op !== undefined) });
}

/** The state on disk: newest snapshot plus later logs; a torn tail is skipped (its change is also forwarded). */
function recoverOnce(): void {
  const base = snapshotGenerations(dataDir).at(-1);
  if (base !== undefined) loadSnapshot(join(dataDir, snapshotFileName(base)), store);
  for (const generation of logGenerations(dataDir).filter((g) => base === undefined || g >= base)) {
    for (const change of readLog(join(dataDir, logFileName(generation))).changes) apply(change);
  }
}

function recover(): number {
  // A snapshot finishing meanwhile may remove the files being read: start again from the newer ones.
  for (let attempt = 1; ; attempt++) {
    try {
      recoverOnce();
      break;
    } catch (error) {
      if (attempt >= 5) throw error;
      store = new OxigraphStore();
    }
  }
  store.apply({ ops: Object.values(GRAPHS).map((graph): ChangeOp => ({ op: 'dropGraph', graph })) });
  // Changes committed while reading: re-applying one already on disk leaves the same state.
  for (const change of buffered ?? []) apply(change);
  buffered = undefined;
  return store.resync();
}

port.on('message', (message: ToWorker) => {
  let reply: FromWorker | undefined;
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
        const text = store.store.query(message.query, {
          // Both lists, always: with the default graph alone, GRAPH ?g would range over every graph.
          default_graph: message.defaultGraphs.map((g) => oxigraph.namedNode(g)),
          named_graphs: message.namedGraphs.map((g) => oxigraph.namedNode(g)),
          results_format: message.format,
        }) as string;
        reply = { type: 'result', id: message.id, text };
      } catch (error) {
        reply = { type: 'error', id: message.id, message: (error as Error).message };
      }
      break;
  }
  port.postMessage(reply);
});
