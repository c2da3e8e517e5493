import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { crc32InSlices, PAGE } from './image-pages.js';
import { pagesInOrder } from '../../../util/pages-in-order.js';
import { newOxigraphInstance, oxigraphWasmHash, type OxigraphInstance, type OxigraphModule } from './oxigraph-instance.js';

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
   * every quad there held the event loop ~0.35 s at 1.5 M quads. The restore takes the estimate as it
   * is (the CRC has checked the bytes; counting 7.9 M quads at start took 1.3 s), and the next snapshot
   * corrects it (OxigraphStore.correctSize).
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
  // A compaction's image comes with its CRC, computed on its thread: not again here, on the event loop
  // (~0.3 s for a 10k-consignment store's 400 MB). A capture leaves 0 (a real CRC of 0 is only recomputed).
  const header = { ...image.header, crc32: image.header.crc32 || await crc32InSlices(image.memory) };
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

function readExactly(fd: number, target: Uint8Array, position: number): void {
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
 * (at 10k consignments ~48 MB were there, and the first write grew the memory 32 MB more).
 */
export function unusedBytes(header: ImageHeader): number {
  return Math.max(0, header.memoryBytes - storedBytes(header));
}

/** Bytes of memory the file holds. */
function storedBytes(header: ImageHeader): number {
  return header.runs === undefined ? header.memoryBytes : header.runs.reduce((n, [first, count]) => n + Math.min(header.memoryBytes, (first + count) * PAGE) - first * PAGE, 0);
}

/** Runs must be in order, apart and inside the memory. */
function runsValid(header: ImageHeader): boolean {
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
  if (header.version !== undefined && header.version !== 2 && header.version !== 3) throw new ImageInvalid(`the image header is version ${String(header.version)}, not one this node reads`);
  if (!runsValid(header)) throw new ImageInvalid('the image header lists its pages out of order');
  const stored = storedBytes(header);
  if (size !== memoryAt + stored + IMAGE_END.length) throw new ImageInvalid(`the image is ${size} bytes, its header says ${memoryAt + stored + IMAGE_END.length} (torn)`);
  const end = Buffer.alloc(IMAGE_END.length);
  readExactly(fd, end, memoryAt + stored);
  if (!end.equals(IMAGE_END)) throw new ImageInvalid('the image has no end marker (torn)');
  if (header.wasmHash !== oxigraphWasmHash()) throw new ImageInvalid('the image was taken from another Oxigraph build');
  return { header, memoryAt };
}

export interface RestoredImage {
  instance: OxigraphInstance;
  /** The restored store (an object of the instance's own `Store` class). */
  store: InstanceType<OxigraphModule['Store']>;
  header: ImageHeader;
}

/**
 * Restores an image into a fresh instance: the memory grown to the image's size and filled from the
 * file in place (no second copy), the externref table grown to its saved length and its primitive
 * values put back, the globals set, and the store object re-made around its pointer. Checked by CRC
 * and, where the image's count is exact, by the store's quad count; throws ImageInvalid on any
 * mismatch (the caller falls back).
 */
export function restoreImage(path: string): RestoredImage {
  const fd = openSync(path, 'r');
  try {
    const { header, memoryAt } = readImageHeader(fd);
    const steps = restoreSteps(header, (target, offset) => readExactly(fd, target, memoryAt + offset));
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  } finally {
    closeSync(fd);
  }
}

/** Checks an image held in memory (a compaction's, from its thread) as readImageHeader checks a file. */
export function checkImage(image: MemoryImage): void {
  const { header } = image;
  if (!runsValid(header)) throw new ImageInvalid('the image header lists its pages out of order');
  if (image.memory.length !== storedBytes(header)) throw new ImageInvalid(`the image holds ${image.memory.length} bytes of memory, its header says ${storedBytes(header)}`);
  if (header.wasmHash !== oxigraphWasmHash()) throw new ImageInvalid('the image was taken from another Oxigraph build');
}

/** Bytes of memory restored between two yields of restoreSteps. */
export const RESTORE_PIECE = 8 * 1024 * 1024;

/** A fresh instance whose memory is grown to the image's size, its own first pages cleared. */
function freshInstance(header: ImageHeader): OxigraphInstance {
  const instance = newOxigraphInstance();
  if (!instance) throw new ImageInvalid('this Oxigraph glue cannot be instantiated by the project');
  const { memory } = instance.wasm;
  if (header.memoryBytes % PAGE !== 0 || header.memoryBytes < memory.buffer.byteLength) throw new ImageInvalid('the image memory size is not a memory this module can have');
  const initialBytes = memory.buffer.byteLength;
  memory.grow((header.memoryBytes - initialBytes) / PAGE);
  // Pages the image leaves out are zero: a grown page is zero already (and stays unresident); the
  // fresh instance's own first pages are cleared (those the image holds are then overwritten).
  new Uint8Array(memory.buffer, 0, initialBytes).fill(0);
  return instance;
}

/** Where each piece of at most `size` bytes of the image's memory goes, and where it is among the stored bytes. */
function pieces(header: ImageHeader, size: number): { at: number; length: number; offset: number }[] {
  const out: { at: number; length: number; offset: number }[] = [];
  let offset = 0;
  for (const [first, count] of header.runs ?? [[0, header.memoryBytes / PAGE]]) {
    for (let at = first * PAGE; at < (first + count) * PAGE; at += size) {
      const length = Math.min(size, (first + count) * PAGE - at);
      out.push({ at, length, offset });
      offset += length;
    }
  }
  return out;
}

/** The rest of a restore once the memory is filled and its CRC taken: the table, the globals, the store. */
function finishRestore(instance: OxigraphInstance, header: ImageHeader, crc: number): RestoredImage {
  const { __wbindgen_externrefs: table } = instance.wasm;
  if (crc !== header.crc32) throw new ImageInvalid('the image memory fails its CRC');
  if (table.length < header.tableLength) table.grow(header.tableLength - table.length);
  for (let i = 0; i < table.length; i += 1) table.set(i, null);
  for (const [i, kind, value] of header.table) table.set(i, kind === 'u' ? undefined : value);
  for (const [name, value] of Object.entries(header.globals)) {
    const global = instance.wasm[name];
    if (!(global instanceof WebAssembly.Global)) throw new ImageInvalid(`the module has no global ${name}`);
    if (Number(global.value) !== value) {
      try {
        global.value = value;
      } catch {
        throw new ImageInvalid(`the module's global ${name} differs and cannot be set`);
      }
    }
  }
  const store = Object.create(instance.ox.Store.prototype) as InstanceType<OxigraphModule['Store']> & { __wbg_ptr: number };
  store.__wbg_ptr = header.storePtr;
  if (header.quadsExact === false) return { instance, store, header };
  const size = store.size;
  if (size !== header.quads) throw new ImageInvalid(`the restored store holds ${size} quads, the image says ${header.quads}`);
  return { instance, store, header };
}

/**
 * The restore, one piece of at most RESTORE_PIECE bytes of memory per step, the stored bytes read
 * through `read` (at an offset into them): run to its end at once, or a step a tick by a compaction,
 * whose fresh instance nobody else uses until it is swapped in.
 */
export function* restoreSteps(header: ImageHeader, read: (target: Uint8Array, offset: number) => void): Generator<void, RestoredImage> {
  const instance = freshInstance(header);
  let crc = 0;
  for (const { at, length, offset } of pieces(header, RESTORE_PIECE)) {
    const bytes = new Uint8Array(instance.wasm.memory.buffer, at, length);
    read(bytes, offset);
    crc = crc32(bytes, crc);
    yield;
  }
  return finishRestore(instance, header, crc);
}

/** Pieces read from an image file at once at start, and their size (libuv's pool has four threads). */
const FILE_READS_IN_FLIGHT = 4;
const FILE_PIECE = 32 * 1024 * 1024;

/**
 * restoreImage for a start: the file read in pieces, four at once straight into the fresh memory,
 * the CRC taken on this thread piece by piece in order while the next are read. Reading is most of a
 * restore (the kernel fills each fresh page as it copies): at 100k consignments a 2.75 GB image took
 * 2.16 s read one piece at a time (1.52 s reading, 0.64 s CRC) and 1.23 s this way.
 */
export async function restoreImageFile(path: string, pieceBytes = FILE_PIECE): Promise<RestoredImage> {
  const file = await open(path, 'r');
  try {
    const { header, memoryAt } = readImageHeader(file.fd);
    const instance = freshInstance(header);
    const list = pieces(header, pieceBytes);
    let crc = 0;
    await pagesInOrder(list.map((_, i) => i), async (i) => {
      const { at, length, offset } = list[i];
      const bytes = new Uint8Array(instance.wasm.memory.buffer, at, length);
      for (let done = 0; done < length;) {
        const { bytesRead } = await file.read(bytes, done, length - done, memoryAt + offset + done);
        if (bytesRead === 0) throw new ImageInvalid('the image ends early');
        done += bytesRead;
      }
      return bytes;
    }, FILE_READS_IN_FLIGHT, (bytes) => {
      crc = crc32(bytes, crc);
    });
    return finishRestore(instance, header, crc);
  } finally {
    await file.close();
  }
}
