import { fstatSync, readSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { crc32InSlices, PAGE } from './image-pages.js';
import { oxigraphWasmHash } from './oxigraph-instance.js';

export { nonZeroRuns } from './image-pages.js';

/**
 * A WebAssembly memory image of one embedded store: the whole linear memory of the instance the
 * store lives in, plus what lives outside that memory (the externref table's primitive values, the
 * exported globals, the store object's pointer). Restoring it into a fresh instance of the same
 * module gives back the store without re-inserting a quad. Format and validity rules:
 * docs/durability-images.md.
 */

export const IMAGE_MAGIC = Buffer.from('OXWIMG1\n');
export const IMAGE_END = Buffer.from('OXWEND1\n');
export const imageFileName = (generation: number): string => `image-${String(generation).padStart(8, '0')}.wimg`;
export const IMAGE_FILE = /^image-(\d{8})\.wimg$/;
/** The image of the activity log's store apart (graph-apart.ts), taken in the same tick as the store's. */
export const apartImageFileName = (generation: number): string => `activity-log-${String(generation).padStart(8, '0')}.wimg`;
export const APART_IMAGE_FILE = /^activity-log-(\d{8})\.wimg$/;

export type Primitive = string | number | boolean | null | undefined;

export interface ImageHeader {
  /** SHA-256 of the .wasm the image was taken from: any other build lays its memory out differently. */
  wasmHash: string;
  generation: number;
  /** The `Store` object's pointer into the memory. */
  storePtr: number;
  /** Quads the store held: checked against `store.size` after a restore unless `quadsExact` is false. */
  quads: number;
  /**
   * False for an image taken alone between snapshots, whose count is the store's estimate: counting
   * every quad there holds the event loop for a time that grows with the store. The restore takes the
   * estimate as it is (the CRC has checked the bytes; a count at start costs the same), and the next
   * snapshot corrects it (OxigraphStore.correctSize). The figures:
   * bench/results/2026-12-08-comment-figures.md.
   */
  quadsExact?: boolean;
  /** Quads removed since the memory was last loaded afresh, still held by it (absent: 0; docs/memory-compaction.md). */
  dead?: number;
  memoryBytes: number;
  /**
   * The runs of 64 KiB pages the file holds, as [first page, pages], in order; every other page is
   * zero (absent: the file holds the whole memory). A grown store's memory is half zeros (freed and
   * not yet used regions): left out, the file and the read are half as long, and a restored page never
   * written stays unresident.
   */
  runs?: [number, number][];
  /** CRC-32 of the bytes the file holds (the runs, in order). */
  crc32: number;
  /** `__wbindgen_externrefs`: its length and every slot that is not null (interned strings, constants). */
  tableLength: number;
  table: [number, 'u' | 'v', Primitive][];
  /** Exported mutable globals' values. */
  globals: Record<string, number>;
  /**
   * Header version 2 (absent: 1, one store): an image of an instance holding several stores, each by
   * name with its pointer, quad estimate and removed quads (the SPARQL engine's copy: `data` and
   * `catalog`, docs/engine-images.md). `storePtr` is then the first of them; readers of version 1
   * ignore the field, and version 1 images have none, so the node's own images read as before.
   * Version 3: the image of a store that keeps its activity log apart (graph-apart.ts), valid only
   * with `activity-log-<generation>.wimg` beside it. A build from before that reads no version 3, so it
   * loads the N-Quads snapshot (which holds both parts) instead of a store without its activity log.
   */
  version?: 2 | 3;
  stores?: Record<string, { ptr: number; quads: number; dead: number }>;
}

export interface MemoryImage {
  header: ImageHeader;
  /** The bytes of the header's runs of pages, one after another (what the file holds). */
  memory: Uint8Array;
}

export class ImageInvalid extends Error {
  override readonly name = 'ImageInvalid';
}

/** Writes an image to `path` (through a .tmp file, fsynced, then renamed): a crash leaves no partial image. */
export async function writeImage(path: string, image: MemoryImage, fsync: boolean): Promise<number> {
  const parts = [image.memory];
  // A compaction's image comes with its CRC, computed on its thread: not again here, on the event loop,
  // where it grows with the image (figures: bench/results/2026-12-08-comment-figures.md). A capture
  // leaves 0 (a real CRC of 0 is only recomputed).
  const header = { ...image.header, crc32: image.header.crc32 || (await crc32InSlices(image.memory)) };
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  const temporary = `${path}.tmp`;
  const file = await open(temporary, 'w');
  try {
    await file.writev([IMAGE_MAGIC, length, json]);
    // In pieces: one write is capped at 2 GiB.
    const PIECE = 256 * 1024 * 1024;
    for (const part of parts) for (let at = 0; at < part.length; at += PIECE) await file.write(part.subarray(at, at + PIECE));
    await file.write(IMAGE_END);
    if (fsync) await file.sync();
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
  await file.close();
  await rename(temporary, path);
  return IMAGE_MAGIC.length + 4 + json.length + storedBytes(header) + IMAGE_END.length;
}

export function readExactly(fd: number, target: Uint8Array, position: number): void {
  let done = 0;
  while (done < target.length) {
    const n = readSync(fd, target, done, Math.min(target.length - done, 1 << 30), position + done);
    if (n === 0) throw new ImageInvalid('the image ends early');
    done += n;
  }
}

/**
 * Bytes of the image's memory that are zeros: the room grown ahead that the store had not used when
 * it was taken. A restored store starts with it as its headroom instead of growing at its first write
 * (figures: bench/results/2026-12-08-comment-figures.md).
 */
export function unusedBytes(header: ImageHeader): number {
  return Math.max(0, header.memoryBytes - storedBytes(header));
}

/** Bytes of memory the file holds. */
export function storedBytes(header: ImageHeader): number {
  return header.runs === undefined
    ? header.memoryBytes
    : header.runs.reduce((n, [first, count]) => n + Math.min(header.memoryBytes, (first + count) * PAGE) - first * PAGE, 0);
}

/** Runs must be in order, apart and inside the memory. */
export function runsValid(header: ImageHeader): boolean {
  if (header.runs === undefined) return true;
  if (!Array.isArray(header.runs)) return false;
  let next = 0;
  for (const run of header.runs) {
    if (!Array.isArray(run) || !Number.isInteger(run[0]) || !Number.isInteger(run[1]) || run[0] < next || run[1] < 1) return false;
    next = run[0] + run[1];
  }
  return next * PAGE <= header.memoryBytes;
}

/** Reads an image's header; throws ImageInvalid when the file is not a whole image of this build. */
export function readImageHeader(fd: number): { header: ImageHeader; memoryAt: number } {
  const size = fstatSync(fd).size;
  const start = Buffer.alloc(IMAGE_MAGIC.length + 4);
  if (size < start.length) throw new ImageInvalid('the image is shorter than its header');
  readExactly(fd, start, 0);
  if (!start.subarray(0, IMAGE_MAGIC.length).equals(IMAGE_MAGIC)) throw new ImageInvalid('not an image (wrong magic)');
  const jsonLength = start.readUInt32LE(IMAGE_MAGIC.length);
  if (start.length + jsonLength > size) throw new ImageInvalid('the image is shorter than its header');
  const json = Buffer.alloc(jsonLength);
  readExactly(fd, json, start.length);
  let header: ImageHeader;
  try {
    header = JSON.parse(json.toString('utf8')) as ImageHeader;
  } catch {
    throw new ImageInvalid('the image header is not JSON');
  }
  const memoryAt = start.length + jsonLength;
  if (header.version !== undefined && header.version !== 2 && header.version !== 3)
    throw new ImageInvalid(`the image header is version ${String(header.version)}, not one this node reads`);
  if (!runsValid(header)) throw new ImageInvalid('the image header lists its pages out of order');
  const stored = storedBytes(header);
  if (size !== memoryAt + stored + IMAGE_END.length)
    throw new ImageInvalid(`the image is ${size} bytes, its header says ${memoryAt + stored + IMAGE_END.length} (torn)`);
  const end = Buffer.alloc(IMAGE_END.length);
  readExactly(fd, end, memoryAt + stored);
  if (!end.equals(IMAGE_END)) throw new ImageInvalid('the image has no end marker (torn)');
  if (header.wasmHash !== oxigraphWasmHash()) throw new ImageInvalid('the image was taken from another Oxigraph build');
  return { header, memoryAt };
}

/** Checks an image held in memory (a compaction's, from its thread) as readImageHeader checks a file. */
export function checkImage(image: MemoryImage): void {
  const { header } = image;
  if (!runsValid(header)) throw new ImageInvalid('the image header lists its pages out of order');
  if (image.memory.length !== storedBytes(header))
    throw new ImageInvalid(`the image holds ${image.memory.length} bytes of memory, its header says ${storedBytes(header)}`);
  if (header.wasmHash !== oxigraphWasmHash()) throw new ImageInvalid('the image was taken from another Oxigraph build');
}
