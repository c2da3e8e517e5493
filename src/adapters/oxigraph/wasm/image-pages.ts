import { crc32 } from 'node:zlib';
import { threadScript } from '../../../core/project-paths.js';
import { oneShotThread } from '../../../core/util/one-shot-thread.js';

/** The pages of a WebAssembly memory as an image holds them (memory-image.ts): 64 KiB each. */
export const PAGE = 65536;
const ZERO_PAGE = Buffer.alloc(PAGE);

/** The runs of pages of `memory` that are not all zeros (a native compare a page). */
export function nonZeroRuns(memory: Uint8Array): [number, number][] {
  const runs: [number, number][] = [];
  const pages = Math.ceil(memory.length / PAGE);
  for (let p = 0; p < pages; p += 1) {
    const page = Buffer.from(memory.buffer, memory.byteOffset + p * PAGE, Math.min(PAGE, memory.length - p * PAGE));
    if (page.length === PAGE && page.equals(ZERO_PAGE)) continue;
    const last = runs.at(-1);
    if (last && last[0] + last[1] === p) last[1] += 1;
    else runs.push([p, 1]);
  }
  return runs;
}

/** The bytes of each run, in order. */
export function runBytes(memory: Uint8Array, runs: [number, number][]): Uint8Array[] {
  return runs.map(([first, count]) => memory.subarray(first * PAGE, Math.min(memory.length, (first + count) * PAGE)));
}

/** CRC-32 of `bytes`, 8 MB a tick: in one call it holds the event loop for a time that grows with the image. */
export async function crc32InSlices(bytes: Uint8Array): Promise<number> {
  const SLICE = 8 * 1024 * 1024;
  let crc = 0;
  for (let at = 0; at < bytes.length; at += SLICE) {
    crc = crc32(bytes.subarray(at, at + SLICE), crc);
    await new Promise((next) => setImmediate(next));
  }
  return crc;
}

/**
 * A buffer of `bytes` whose pages are resident, made on a thread of its own (resident-buffer-thread.ts):
 * an image copied into it holds the event loop for the copy alone, not for the page faults of fresh
 * memory. Made on the event loop, even 8 MB a tick, the buffer takes seconds of its time on a VM
 * whose first touch of a page is slow; on the thread the loop hardly pauses (figures:
 * bench/results/2026-12-08-comment-figures.md).
 */
export function residentBuffer(bytes: number, signal?: AbortSignal): Promise<Uint8Array> {
  return oneShotThread<ArrayBuffer>(threadScript('adapters/oxigraph/wasm/resident-buffer-thread.js'), bytes, 'image buffer', signal).then(
    (buffer) => new Uint8Array(buffer),
  );
}

/**
 * Where the next image of a store is copied, made resident beforehand: room for the store's whole
 * memory (an image holds its pages that are not all zeros) or a quarter more than its newest image,
 * whichever is more, plus 32 MB for what the store takes in while the buffer is made (10 % more than
 * the newest image was outgrown once in a soak). A copy into it holds the event loop for the copy
 * alone, not for the page faults of fresh memory, which made such copies a soak's longest stalls
 * (figures: bench/results/2026-12-08-comment-figures.md). None when there is no memory for it: the
 * copy then allocates its own, as before.
 */
export async function imageCopyBuffer(
  memoryBytes: number,
  newestImageBytes: number,
  signal?: AbortSignal,
): Promise<Uint8Array | undefined> {
  try {
    return await residentBuffer(Math.ceil(Math.max(memoryBytes, newestImageBytes * 1.25)) + 32 * 1024 * 1024, signal);
  } catch {
    return undefined;
  }
}
