import { parentPort, workerData } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import { replaySnapshot } from './data-dir-replay.js';
import { splitNQuadsBytes } from '../graph-apart.js';
import { OxigraphStore } from '../oxigraph-store.js';
import { pairedImage } from '../store-memory.js';
import { loadSnapshot, readUnits } from './recovery.js';

/**
 * A compaction's thread (compaction.ts): loads a finished N-Quads snapshot into a fresh Oxigraph
 * instance of its own, with recovery's loader and its trailer check, and answers with a memory image
 * of it, its bytes transferred, not copied. The load grows with the store (seconds for a large one):
 * here it costs the node's event loop nothing. With `apart`, the activity log's lines are counted and left out: the
 * store keeps that graph apart, and nothing is ever removed from it.
 */
const { path, generation, apart } = workerData as { path: string; generation: number; apart: boolean };
const store = new OxigraphStore(undefined, 'own');
if (!store.instance) throw new Error('this Oxigraph glue cannot be instantiated by the project');
// Either way the snapshot's trailer count is checked against what was read.
if (apart) {
  replaySnapshot(path, {
    snapshot: (file, expected) => {
      store.headroom.expect(expected);
      let apartLines = 0;
      readUnits(file, (bytes) => {
        const parts = splitNQuadsBytes(bytes);
        apartLines += parts.apartLines;
        if (parts.rest.length > 0) store.loadTrusted(parts.rest);
      });
      return store.resync() + apartLines;
    },
  });
} else {
  loadSnapshot(path, store);
}
const captured = store.captureImage(generation, store.ownApproximateSize);
if (!captured) throw new Error('the compacted store cannot be saved as an image');
const image = apart ? pairedImage(captured) : captured;
// Checked again by the restore on the node's thread: the bytes crossed a thread boundary.
image.header.crc32 = crc32(image.memory);
parentPort!.postMessage(image, [image.memory.buffer as ArrayBuffer]);
