import { crc32 } from 'node:zlib';

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

/** CRC-32 of `bytes`, 8 MB a tick: one call held the event loop ~0.2 s for a 540 MB image. */
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
 * A buffer of `bytes` whose pages are resident, made 8 MB a tick: an image copied into it holds the
 * event loop for the copy alone, not for the page faults of fresh memory.
 */
export async function prefaultedBuffer(bytes: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(bytes);
  const SLICE = 8 * 1024 * 1024;
  for (let at = 0; at < bytes; at += SLICE) {
    buffer.fill(0, at, Math.min(bytes, at + SLICE));
    await new Promise((next) => setImmediate(next));
  }
  return buffer;
}

/**
 * Where the next image of a store is copied: a buffer a quarter larger than its newest image (the store
 * grows between images; 10 % larger was outgrown once in a soak), made resident beforehand, so the
 * copy in the rotation's tick holds the event loop ~0.06 s instead of ~0.6 s for 600 MB (the page
 * faults of fresh memory; in a soak the copies were the longest stalls, 0.8–1.5 s, and 0.16–0.19 s
 * with this buffer). None when there is no memory for it: the copy then allocates its own, as before.
 */
export async function imageCopyBuffer(newestImageBytes: number): Promise<Uint8Array | undefined> {
  try {
    return await prefaultedBuffer(Math.ceil(newestImageBytes * 1.25) + 32 * 1024 * 1024);
  } catch {
    return undefined;
  }
}
