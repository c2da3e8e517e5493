import { closeSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { PAGE } from './image-pages.js';
import { pagesInOrder } from '../../../core/util/pages-in-order.js';
import { newOxigraphInstance, type OxigraphInstance, type OxigraphModule } from './oxigraph-instance.js';
import { type ImageHeader, ImageInvalid, readExactly, readImageHeader } from './memory-image.js';

// Restoring a memory image (memory-image.ts holds its format, its header and how it is written).

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

/** Bytes of memory restored between two yields of restoreSteps. */
export const RESTORE_PIECE = 8 * 1024 * 1024;

/** A fresh instance whose memory is grown to the image's size, its own first pages cleared. */
function freshInstance(header: ImageHeader): OxigraphInstance {
  const instance = newOxigraphInstance();
  if (!instance) throw new ImageInvalid('this Oxigraph glue cannot be instantiated by the project');
  const { memory } = instance.wasm;
  if (header.memoryBytes % PAGE !== 0 || header.memoryBytes < memory.buffer.byteLength)
    throw new ImageInvalid('the image memory size is not a memory this module can have');
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
 * restore (the kernel fills each fresh page as it copies), and reads in flight together overlap it
 * with the CRC (figures: bench/results/2026-12-08-comment-figures.md).
 */
export async function restoreImageFile(path: string, pieceBytes = FILE_PIECE): Promise<RestoredImage> {
  const file = await open(path, 'r');
  try {
    const { header, memoryAt } = readImageHeader(file.fd);
    const instance = freshInstance(header);
    let crc = 0;
    await pagesInOrder(
      pieces(header, pieceBytes),
      async ({ at, length, offset }) => {
        const bytes = new Uint8Array(instance.wasm.memory.buffer, at, length);
        for (let done = 0; done < length;) {
          const { bytesRead } = await file.read(bytes, done, length - done, memoryAt + offset + done);
          if (bytesRead === 0) throw new ImageInvalid('the image ends early');
          done += bytesRead;
        }
        return bytes;
      },
      FILE_READS_IN_FLIGHT,
      (bytes) => {
        crc = crc32(bytes, crc);
      },
    );
    return finishRestore(instance, header, crc);
  } finally {
    await file.close();
  }
}
