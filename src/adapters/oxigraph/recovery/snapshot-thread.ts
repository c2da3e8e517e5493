import { parentPort, workerData } from 'node:worker_threads';
import { QueryBank } from '../../../core/queries/query-bank.js';
import { restoreImage } from '../wasm/image-restore.js';
import { OxigraphStore } from '../oxigraph-store.js';
import { SnapshotRun, writeSnapshotFile } from './snapshot-run.js';
import type { ImageSnapshotJob, ImageSnapshotWritten } from './snapshot-from-image.js';

/**
 * A snapshot's thread (snapshot-from-image.ts): restores the memory image taken at the rotation into
 * an Oxigraph instance of its own (and its activity log's, into another) and walks that copy into the
 * N-Quads snapshot. The copy is frozen at the rotation, so the walk needs no copy-on-write and costs
 * the node's event loop nothing.
 */
const { imagePath, apartImagePath, path, generation, fsync } = workerData as ImageSnapshotJob;
const memory = (path: string) => {
  const restored = restoreImage(path);
  if (restored.header.generation !== generation)
    throw new Error(`the image holds generation ${restored.header.generation}, not ${generation}`);
  return { instance: restored.instance, store: restored.store, quads: restored.header.quads };
};
const store = new OxigraphStore(undefined, memory(imagePath), apartImagePath === undefined ? undefined : memory(apartImagePath));
const run = new SnapshotRun(store, new QueryBank());
await writeSnapshotFile(run, path, generation, fsync);
parentPort!.postMessage({ quads: run.quads, bytes: run.bytes } satisfies ImageSnapshotWritten);
