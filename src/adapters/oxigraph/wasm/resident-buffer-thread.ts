import { parentPort, workerData } from 'node:worker_threads';

/**
 * Makes a buffer of `workerData` bytes resident and hands it over (image-pages.ts, residentBuffer):
 * transferred, not copied, so the node's thread gets these very pages. Writing each page is what makes
 * the kernel back it; done here, the page faults cost the event loop nothing. A plain ArrayBuffer, not
 * shared memory: in one CI run with a SharedArrayBuffer here, V8 died in its deoptimizer during a
 * compaction test that takes images (not reproduced in 8 runs of those tests since); the transfer keeps
 * the pages resident just the same (the figures: bench/results/2026-12-08-comment-figures.md).
 */
const buffer = new ArrayBuffer(workerData as number);
new Uint8Array(buffer).fill(0);
parentPort!.postMessage(buffer, [buffer]);
