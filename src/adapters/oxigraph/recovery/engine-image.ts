import { closeSync, existsSync, fsync, openSync, read, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import type oxigraph from 'oxigraph';
import { nonZeroRuns, runBytes } from '../wasm/image-pages.js';
import { instanceState } from '../wasm/image-capture.js';
import { IMAGE_END, IMAGE_MAGIC, type ImageHeader, ImageInvalid } from '../wasm/memory-image.js';
import { restoreImage } from '../wasm/image-restore.js';
import { oxigraphWasmHash, type OxigraphInstance } from '../wasm/oxigraph-instance.js';
import type { OxigraphStore } from '../oxigraph-store.js';
import { logFileName, logGenerations } from '../log/write-ahead-log.js';
import { syncDirectory } from '../../../core/util/sync-directory.js';

/**
 * Memory images of a SPARQL engine thread's copy (src/adapters/sparql-endpoint/engine/engine-copy.ts): its two stores,
 * `data` and `catalog`, live in one Oxigraph instance of the thread's own, whose memory is saved at a
 * log rotation as `engine-image-<G>.wimg`, in the node's image format (memory-image.ts, header version 2
 * naming both stores). A thread that starts restores the newest one and replays the logs from G on,
 * instead of loading the N-Quads snapshot. Why and when: docs/engine-images.md.
 */

export const engineImageFileName = (generation: number): string => `engine-image-${String(generation).padStart(8, '0')}.wimg`;
const ENGINE_IMAGE_FILE = /^engine-image-(\d{8})\.wimg$/;

/** Generations of the complete engine images in `dir`, ascending (unfinished ones end in .tmp). */
export function engineImageGenerations(dir: string): number[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((f) => ENGINE_IMAGE_FILE.exec(f))
    .filter((m) => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

/** Deletes the engine images older than `generation` (a newer one, or a snapshot, supersedes them). */
export async function pruneEngineImages(dir: string, generation: number): Promise<void> {
  for (const g of engineImageGenerations(dir)) if (g < generation) await rm(join(dir, engineImageFileName(g)), { force: true });
}

export interface EngineImageWritten {
  generation: number;
  bytes: number;
  /** How long the thread was held: the CRC and the write of the memory, from the live memory. */
  pauseMs: number;
  /** Until the image was durable and in place. */
  ms: number;
}

const fsyncAsync = promisify(fsync);
/** One write is capped at 2 GiB. */
const PIECE = 256 * 1024 * 1024;

function pointer(store: OxigraphStore): number {
  const ptr = (store.store as unknown as { __wbg_ptr?: number }).__wbg_ptr;
  if (typeof ptr !== 'number' || ptr === 0) throw new ImageInvalid('a store of the engine copy has no pointer');
  return ptr;
}

/**
 * Writes the image of `instance`, which holds `stores` (and nothing a later restore needs besides),
 * to `dir` as generation `generation`: through a .tmp file, fsynced, renamed, and the older engine
 * images removed. The memory is written straight from the live instance, in one synchronous pass
 * (the thread answers nothing meanwhile, so no call changes it): no copy of it is made, so the
 * thread's memory does not double while the image is written. The header's place is reserved at its
 * longest and filled in afterwards: its CRC-32 is computed by reading the file back, 8 MB a tick, with
 * the thread answering again (taken in the same pass, the CRC is much of the hold), then the fsync. The figures:
 * bench/results/2026-12-08-comment-figures.md.
 */
export async function writeEngineImage(
  dir: string,
  generation: number,
  instance: OxigraphInstance,
  stores: Record<string, OxigraphStore>,
  durable: boolean,
): Promise<EngineImageWritten> {
  const started = performance.now();
  const state = instanceState(instance);
  const wasmHash = oxigraphWasmHash();
  if (!state || !wasmHash)
    throw new ImageInvalid("the engine copy's memory cannot be imaged (it holds a JS object, or the glue is not the project's)");
  const named = Object.entries(stores);
  const [first] = named;
  if (first === undefined) throw new ImageInvalid('an engine image holds at least one store');
  const live = new Uint8Array(instance.wasm.memory.buffer);
  const runs = nonZeroRuns(live);
  const parts = runBytes(live, runs);
  const header: ImageHeader = {
    version: 2,
    wasmHash,
    generation,
    storePtr: pointer(first[1]),
    quads: first[1].approximateSize,
    quadsExact: false,
    dead: first[1].deadQuads,
    memoryBytes: live.length,
    runs,
    crc32: 0xffffffff,
    ...state,
    stores: Object.fromEntries(
      named.map(([name, store]) => [name, { ptr: pointer(store), quads: store.approximateSize, dead: store.deadQuads }]),
    ),
  };
  // The longest the header can be (the CRC at ten digits): the real one is padded with spaces to it.
  const reserved = Buffer.byteLength(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(reserved);
  const memoryAt = IMAGE_MAGIC.length + length.length + reserved;
  const final = join(dir, engineImageFileName(generation));
  const temporary = `${final}.tmp`;
  const fd = openSync(temporary, 'w+', 0o600);
  let bytes = 0;
  let pauseMs: number;
  try {
    const write = (buffer: Uint8Array): void => {
      for (let at = 0; at < buffer.length;) at += writeSync(fd, buffer, at, Math.min(PIECE, buffer.length - at));
      bytes += buffer.length;
    };
    write(IMAGE_MAGIC);
    write(length);
    write(Buffer.alloc(reserved, 0x20));
    for (const part of parts) write(part);
    write(IMAGE_END);
    pauseMs = Math.round(performance.now() - started);
    // From here on the live memory may change: the CRC is of the bytes in the file.
    header.crc32 = await fileCrc(fd, memoryAt, bytes - memoryAt - IMAGE_END.length);
    const json = Buffer.from(JSON.stringify(header).padEnd(reserved, ' '));
    if (json.length !== reserved) throw new Error('the engine image header outgrew its place');
    writeSync(fd, json, 0, json.length, IMAGE_MAGIC.length + length.length);
    if (durable) await fsyncAsync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, final);
  if (durable) syncDirectory(dir);
  await pruneEngineImages(dir, generation);
  return { generation, bytes, pauseMs, ms: Math.round(performance.now() - started) };
}

const readAsync = promisify(read);

/** CRC-32 of `length` bytes of the file from `position`, read 8 MB at a time, each read a tick of its own. */
async function fileCrc(fd: number, position: number, length: number): Promise<number> {
  const SLICE = 8 * 1024 * 1024;
  const buffer = Buffer.allocUnsafe(SLICE);
  let crc = 0;
  for (let at = 0; at < length;) {
    const { bytesRead } = await readAsync(fd, buffer, 0, Math.min(SLICE, length - at), position + at);
    if (bytesRead === 0) throw new Error('the engine image ended early while its CRC was computed');
    crc = crc32(buffer.subarray(0, bytesRead), crc);
    at += bytesRead;
  }
  return crc;
}

export interface RestoredEngineImage {
  generation: number;
  instance: OxigraphInstance;
  /** Each store of the image, re-made around its pointer, with the counts it was saved with. */
  stores: Record<string, { store: oxigraph.Store; quads: number; dead: number }>;
  ms: number;
}

/**
 * Restores the newest engine image of `dir` whose log from its generation on is there; throws (with
 * the reason, ImageInvalid for the image itself) when there is none or it is not usable: another
 * Oxigraph build, torn, failing its CRC, its log retired, not the stores `names`. The caller then loads
 * the N-Quads snapshot.
 */
export function restoreNewestEngineImage(dir: string, names: readonly string[]): RestoredEngineImage {
  const started = performance.now();
  const generation = engineImageGenerations(dir).at(-1);
  if (generation === undefined) throw new ImageInvalid('there is no engine image');
  const logs = logGenerations(dir).filter((g) => g >= generation);
  if (logs[0] !== generation)
    throw new ImageInvalid(`the change log ${logFileName(generation)} that follows ${engineImageFileName(generation)} is missing`);
  const restored = restoreImage(join(dir, engineImageFileName(generation)));
  const { header, instance } = restored;
  if (header.generation !== generation)
    throw new ImageInvalid(`${engineImageFileName(generation)} says it holds generation ${header.generation}`);
  const stores: RestoredEngineImage['stores'] = {};
  for (const name of names) {
    const saved = header.stores?.[name];
    if (!saved || !Number.isInteger(saved.ptr) || saved.ptr <= 0 || saved.ptr >= header.memoryBytes)
      throw new ImageInvalid(`the engine image has no store ${name}`);
    const store = Object.create(instance.ox.Store.prototype) as oxigraph.Store & { __wbg_ptr: number };
    store.__wbg_ptr = saved.ptr;
    stores[name] = { store, quads: saved.quads, dead: saved.dead };
  }
  return { generation, instance, stores, ms: Math.round(performance.now() - started) };
}
