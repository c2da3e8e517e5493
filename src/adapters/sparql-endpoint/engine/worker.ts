import { parentPort, workerData } from 'node:worker_threads';
import type { Logger } from '../../../core/logger.js';
import type { Change } from '../../../core/ports/quad-store.js';
import { compactionDue, type CompactionSettings } from '../../oxigraph/recovery/compaction-policy.js';
import { EngineCopy } from './engine-copy.js';
import type { FromWorker, ToWorker } from './messages.js';
import type { EngineImageSettings } from './engine-thread.js';

/**
 * The SPARQL endpoint's engine thread: an EngineCopy (the data graphs, and the catalog that decides
 * which of them a caller may see) started from the data dir, then following every change the node
 * commits. Being a thread of its own, it can be terminated when a query runs past the time limit.
 *
 * Changes are buffered as they arrive and applied in one batch before the next query, or once the
 * messages waiting on the port have been taken (the thread is idle), so a burst of commits costs one
 * apply, not one per commit. A query is always posted after every change acknowledged before it was
 * asked, on the same port, so the batch applied before it holds them all (read-your-writes).
 */
const port = parentPort!;
const { dataDir, compaction, images } = workerData as { dataDir: string; compaction?: CompactionSettings; images?: EngineImageSettings };
const copy = new EngineCopy();
let buffered: Change[] | undefined = [];
let flushScheduled = false;
/**
 * Removed quads when the copy had read the data dir, and when it last asked to be replaced. Only those
 * removed since it read the disk count: a replacement reads the same snapshot and logs, so it would
 * hold the ones replayed from the logs too (asking for them would replace thread after thread).
 */
let recoveredWith = 0;
let askedAt = 0;

/**
 * Recovery reads a data dir the node keeps writing: a record being written at the end of the newest
 * log is expected there, and the change itself arrives as a message anyway. Nothing to tell the node.
 */
const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };

function recover(fromImage: boolean): FromWorker {
  const quads = copy.recover(dataDir, quiet, { images: fromImage });
  // Changes committed while the disk was read; re-applying one already on disk leaves the same state.
  for (const change of buffered ?? []) copy.follow(change);
  buffered = undefined;
  copy.flush();
  // The removed quads an image carried count towards a compaction: a copy read from the snapshot would
  // not hold them (those replayed from the logs it would).
  recoveredWith = copy.deadQuads - copy.recovered.imageDead;
  const { from, reason, generation } = copy.recovered;
  return { type: 'ready', quads, from, ...(reason === undefined ? {} : { reason }), ...(generation === undefined ? {} : { generation }) };
}

/**
 * Saves the copy as the engine image of `generation`: every change before that log has been applied
 * (the message came after the last of them on this port, and the pending ones are applied first), none
 * after. Written from the live memory, so the thread answers nothing until the bytes are written.
 */
function saveImage(generation: number): void {
  copy.flush();
  if (!images || copy.liveQuads < images.minQuads) return;
  copy.saveImage(dataDir, generation, images.fsync).then(
    (written) => port.postMessage({ type: 'imaged', ...written } satisfies FromWorker),
    (error: Error) => port.postMessage({ type: 'imaged', generation, error: error.message } satisfies FromWorker),
  );
}

/**
 * Asks the engine to replace this thread by a fresh one once its copy holds enough removed quads: the
 * memory they hold is never given back otherwise (docs/memory-compaction.md).
 */
function askCompaction(): void {
  if (!compaction || buffered) return;
  const dead = copy.deadQuads - recoveredWith;
  if (dead < askedAt + compaction.minDead || !compactionDue(dead, copy.liveQuads, compaction)) return;
  askedAt = dead;
  port.postMessage({ type: 'compact', dead, live: copy.liveQuads } satisfies FromWorker);
}

function flushWhenIdle(): void {
  if (flushScheduled) return;
  flushScheduled = true;
  // setImmediate runs after the messages already waiting on the port have been handled.
  setImmediate(() => {
    flushScheduled = false;
    copy.flush();
    askCompaction();
  });
}

port.on('message', (message: ToWorker) => {
  let reply: FromWorker;
  switch (message.type) {
    case 'change':
      if (buffered) buffered.push(message.change);
      else {
        copy.follow(message.change);
        flushWhenIdle();
      }
      return;
    case 'image':
      // A thread still reading the disk has nothing consistent to save; the next rotation will do.
      try {
        if (!buffered) saveImage(message.generation);
      } finally {
        // The memory is in the file (its fsync under way), or no image was taken: queries may come again.
        port.postMessage({ type: 'resumed' } satisfies FromWorker);
      }
      return;
    case 'recover':
      try {
        reply = recover(message.images === true && images !== undefined);
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
  if (message.type === 'query') askCompaction();
});
