import { parentPort, workerData } from 'node:worker_threads';
import type { Change } from '../store/quad-store.js';
import { EngineCopy } from './sparql-worker-copy.js';
import type { FromWorker, ToWorker } from './sparql-worker-messages.js';

/**
 * The SPARQL endpoint's engine thread: an EngineCopy (the data graphs, and the catalog that decides
 * which of them a caller may see) started from the data dir, then following every change the node
 * commits. Being a thread of its own, it can be terminated when a query runs past the time limit.
 */
const port = parentPort!;
const { dataDir } = workerData as { dataDir: string };
const copy = new EngineCopy();
let buffered: Change[] | undefined = [];

function recover(): number {
  const quads = copy.recover(dataDir);
  // Changes committed while the disk was read; re-applying one already on disk leaves the same state.
  for (const change of buffered ?? []) copy.apply(change);
  buffered = undefined;
  return quads;
}

port.on('message', (message: ToWorker) => {
  let reply: FromWorker;
  switch (message.type) {
    case 'change':
      if (buffered) buffered.push(message.change);
      else copy.apply(message.change);
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
        const text = copy.query(message);
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
