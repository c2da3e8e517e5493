import { parentPort, workerData } from 'node:worker_threads';

/**
 * Makes a buffer of `workerData` bytes resident and hands it over (image-pages.ts, residentBuffer):
 * shared memory, so the node's thread gets these very pages. Writing each page is what makes the
 * kernel back it; done here, the page faults cost the event loop nothing.
 */
const buffer = new SharedArrayBuffer(workerData as number);
new Uint8Array(buffer).fill(0);
parentPort!.postMessage(buffer);
