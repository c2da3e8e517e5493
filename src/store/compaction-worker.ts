import { parentPort, workerData } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import { OxigraphStore } from './oxigraph-store.js';
import { loadSnapshot } from './recovery.js';

/**
 * A compaction's thread (compaction.ts): loads a finished N-Quads snapshot into a fresh Oxigraph
 * instance of its own, with recovery's loader and its trailer check, and answers with a memory image
 * of it, its bytes transferred, not copied. The load takes seconds per 10k consignments: here it costs
 * the node's event loop nothing.
 */
const { path, generation } = workerData as { path: string; generation: number };
const store = new OxigraphStore(undefined, 'own');
if (!store.instance) throw new Error('this Oxigraph glue cannot be instantiated by the project');
const quads = loadSnapshot(path, store);
const image = store.captureImage(generation, quads);
if (!image) throw new Error('the compacted store cannot be saved as an image');
// Checked again by the restore on the node's thread: the bytes crossed a thread boundary.
image.header.crc32 = crc32(image.memory);
parentPort!.postMessage(image, [image.memory.buffer as ArrayBuffer]);
