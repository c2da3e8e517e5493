import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../../core/logger.js';
import type { Change } from '../../../core/ports/quad-store.js';
import { OxigraphStore } from '../oxigraph-store.js';
import { apartImageFileName, imageFileName, unusedBytes } from '../wasm/memory-image.js';
import { restoreImage, restoreImageFile, type RestoredImage } from '../wasm/image-restore.js';
import { imageGenerations, snapshotGenerations, UNIT_SEPARATOR } from './snapshot-files.js';
import { logFileName, logGenerations, WriteAheadLog } from '../log/write-ahead-log.js';
import { replayDataDir, replaySnapshot, StoreRecoveryError } from './data-dir-replay.js';

export { StoreRecoveryError };

export interface RecoveryReport {
  snapshotGeneration: number | undefined;
  /** Set when the store came back from a memory image (of that generation) rather than the N-Quads. */
  imageGeneration?: number;
  /** Why an image that was there was not used (the N-Quads snapshot was loaded instead). */
  imageRejected?: string;
  snapshotQuads: number;
  snapshotMs: number;
  logs: number;
  changes: number;
  droppedBytes: number;
  quads: number;
  ms: number;
}

const CHUNK = 8 * 1024 * 1024;
const SEPARATOR_LINE = Buffer.from(`\n${UNIT_SEPARATOR}`);

/**
 * Reads a file in chunks of about 8 MiB cut only at unit separator lines (`#`), so no unit (and no
 * blank node) is split between chunks; a file without them comes whole.
 */
export function readUnits(path: string, onChunk: (bytes: Buffer) => void, chunkBytes = CHUNK): void {
  const fd = openSync(path, 'r');
  // Bytes read since the last cut; joined only when a separator arrives, so a file without any is
  // copied once, not once per chunk.
  let parts: Buffer[] = [];
  let partsLength = 0;
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkBytes);
      const n = readSync(fd, chunk, 0, chunkBytes, null);
      if (n === 0) break;
      parts.push(chunk.subarray(0, n));
      partsLength += n;
      // A separator split across two reads is not seen: the cut then waits for the next one.
      const at = chunk.subarray(0, n).lastIndexOf(SEPARATOR_LINE);
      if (at < 0) continue;
      const data = Buffer.concat(parts);
      const cut = partsLength - n + at;
      onChunk(data.subarray(0, cut + 1));
      const rest = data.subarray(cut + SEPARATOR_LINE.length);
      parts = rest.length > 0 ? [rest] : [];
      partsLength = rest.length;
    }
    if (partsLength > 0) onChunk(Buffer.concat(parts));
  } finally {
    closeSync(fd);
  }
}

/**
 * Loads an N-Quads file unit-wise (see readUnits). `trusted` skips validation (our own snapshots).
 * The chunks go to Oxigraph as bytes, not decoded to strings only for the module to encode them back
 * to UTF-8 (a small saving: Oxigraph's own work dominates a load; figures in
 * bench/results/2026-12-08-comment-figures.md).
 */
export function loadNQuadsFile(path: string, store: OxigraphStore, trusted: boolean, chunkBytes = CHUNK): void {
  readUnits(path, (bytes) => store.loadNQuads(bytes, trusted), chunkBytes);
}

/** Loads a snapshot and checks it holds as many quads as its trailer says. */
export function loadSnapshot(path: string, store: OxigraphStore): number {
  return replaySnapshot(path, intoStore(store));
}

/** Replays snapshot and logs into the node's own store. */
function intoStore(store: OxigraphStore) {
  return {
    snapshot: (path: string, quads: number): number => {
      // The activity log's share of the quads goes to its own store, which grows as they come.
      store.headroom.expect(quads);
      loadNQuadsFile(path, store, true);
      return store.resync();
    },
    changes: (changes: Change[]): void => store.replay(changes),
  };
}

type Restored = RestoredImage & { generation: number; quads: number; dead: number; ms: number; apart: RestoredImage };
type ImageOutcome = { restored?: Restored; rejected?: string };

/**
 * The newest memory image that is not older than the newest N-Quads snapshot (older ones may have had
 * their logs retired) and has the log that follows it, restored by `restore`; undefined (and the
 * reason logged) when there is none or it is not valid for this build: the caller then loads the
 * N-Quads snapshot. `restore` reads the file at once (restoreImage) or in pieces read together
 * (restoreImageFile, a node's start).
 */
function restoreNewestImage(
  dir: string,
  newestSnapshot: number | undefined,
  logger: Logger,
  restore: (path: string) => RestoredImage,
): ImageOutcome;
function restoreNewestImage(
  dir: string,
  newestSnapshot: number | undefined,
  logger: Logger,
  restore: (path: string) => Promise<RestoredImage>,
): Promise<ImageOutcome>;
function restoreNewestImage(
  dir: string,
  newestSnapshot: number | undefined,
  logger: Logger,
  restore: (path: string) => RestoredImage | Promise<RestoredImage>,
): ImageOutcome | Promise<ImageOutcome> {
  const generation = imageGenerations(dir).at(-1);
  if (generation === undefined || (newestSnapshot !== undefined && generation < newestSnapshot)) return {};
  const logs = logGenerations(dir).filter((g) => g >= generation);
  const path = join(dir, imageFileName(generation));
  const t = performance.now();
  const rejected = (error: unknown): ImageOutcome => {
    const reason = (error as Error).message;
    logger.warn('memory image not used; loading the N-Quads snapshot instead', { image: path, reason });
    return { rejected: reason };
  };
  const accepted = ([restored, apart]: [RestoredImage, RestoredImage]): ImageOutcome => {
    for (const image of [restored, apart])
      if (image.header.generation !== generation) throw new Error(`its header says generation ${image.header.generation}`);
    if (restored.header.version !== 3) throw new Error('it holds the activity log too (taken before the activity log was kept apart)');
    return {
      restored: {
        ...restored,
        generation,
        quads: restored.header.quads,
        dead: restored.header.dead ?? 0,
        ms: Math.round(performance.now() - t),
        apart,
      },
    };
  };
  try {
    if (logs.length > 0 && logs[0] !== generation) throw new Error(`the change log ${logFileName(generation)} that follows it is missing`);
    // The activity log's image of the same rotation: both or neither (then the N-Quads snapshot holds both parts).
    const apartPath = join(dir, apartImageFileName(generation));
    if (!existsSync(apartPath)) throw new Error(`the activity log's image ${apartImageFileName(generation)} taken with it is missing`);
    const restored = restore(path);
    if (restored instanceof Promise)
      return Promise.all([restored, restore(apartPath)])
        .then(accepted)
        .catch(rejected);
    return accepted([restored, restore(apartPath) as RestoredImage]);
  } catch (error) {
    return rejected(error);
  }
}

/** Creates the data dir, renames a legacy log, and clears what an interrupted snapshot or image left. */
function prepareDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The first releases kept a single changes.log: it is generation 0.
  const legacy = join(dir, 'changes.log');
  if (existsSync(legacy) && logGenerations(dir).length === 0) renameSync(legacy, join(dir, logFileName(0)));
  for (const file of readdirSync(dir)) if (file.endsWith('.nq.tmp') || file.endsWith('.wimg.tmp')) rmSync(join(dir, file), { force: true });
}

/**
 * openEmbeddedStore for a node's start: the image, if any, read in pieces read together
 * (restoreImageFile), the rest as openEmbeddedStore does it.
 */
export async function recoverEmbeddedStore(
  dir: string,
  fsync: boolean,
  logger: Logger,
  options: { images?: boolean } = {},
): Promise<{ store: OxigraphStore; report: RecoveryReport }> {
  const started = performance.now();
  prepareDataDir(dir);
  const image = options.images ? await restoreNewestImage(dir, snapshotGenerations(dir).at(-1), logger, restoreImageFile) : {};
  return recoverFrom(dir, fsync, logger, { images: options.images }, image, started);
}

/**
 * Recovers the embedded store from the data dir: the newest finished snapshot (or the image taken at
 * or after it), then every log from its generation on. A torn or corrupt tail of the newest log is cut
 * off with a warning (it was never acknowledged: answers wait for fsync); damage anywhere else stops
 * the start, since skipping it would drop acknowledged changes.
 */
export function openEmbeddedStore(
  dir: string,
  fsync: boolean,
  logger: Logger,
  options: { readOnly?: boolean; images?: boolean } = {},
): { store: OxigraphStore; report: RecoveryReport } {
  const started = performance.now();
  const { readOnly = false, images = false } = options;
  if (!readOnly) prepareDataDir(dir);
  const image = images && !readOnly ? restoreNewestImage(dir, snapshotGenerations(dir).at(-1), logger, restoreImage) : {};
  return recoverFrom(dir, fsync, logger, options, image, started);
}

/** The store from its image (if restored) or newest snapshot, and every log after it. */
function recoverFrom(
  dir: string,
  fsync: boolean,
  logger: Logger,
  options: { readOnly?: boolean; images?: boolean },
  image: ImageOutcome,
  started: number,
): { store: OxigraphStore; report: RecoveryReport } {
  const { readOnly = false, images = false } = options;
  const { restored, rejected } = image;
  let base = snapshotGenerations(dir).at(-1);
  // A store with an instance of its own, so that later snapshots can save its memory as an image; the
  // activity log's store apart has one whatever the images (its memory is what it spares the other's).
  const store0 = new OxigraphStore(
    undefined,
    restored ? { ...restored, room: unusedBytes(restored.header) } : images && !readOnly ? 'own' : 'shared',
    restored
      ? {
          ...restored.apart,
          quads: restored.apart.header.quads,
          dead: restored.apart.header.dead ?? 0,
          room: unusedBytes(restored.apart.header),
        }
      : 'own',
  );
  if (restored) base = restored.generation;
  const replayed = replayDataDir(dir, base, intoStore(store0), { readOnly, logger, loaded: restored !== undefined });
  const { logs, changes, droppedBytes } = replayed;
  const snapshotQuads = restored ? restored.quads : replayed.snapshotQuads;
  const snapshotMs = restored ? restored.ms : replayed.snapshotMs;
  // The count the image or snapshot load checked (an image taken alone carries the estimate), kept up by
  // the replay: it counts what each change removed and the lines it inserted, so it can only be over
  // by quads inserted again, the safe side for the capacity guard, until the next snapshot counts them.
  // A recount here grows with the store, on the event loop of a start (figures:
  // bench/results/2026-12-08-comment-figures.md).
  const quads = store0.approximateSize;
  // Appends continue in the newest log (or a new one after the snapshot).
  const generation = logs.at(-1) ?? base ?? 0;
  const store = readOnly ? store0 : store0.attachLog(new WriteAheadLog(join(dir, logFileName(generation)), fsync, generation));
  const report: RecoveryReport = {
    snapshotGeneration: base,
    ...(restored ? { imageGeneration: restored.generation } : {}),
    ...(rejected ? { imageRejected: rejected } : {}),
    snapshotQuads,
    snapshotMs,
    logs: logs.length,
    changes,
    droppedBytes,
    quads,
    ms: Math.round(performance.now() - started),
  };
  logger.info('store recovered', { ...report });
  return { store, report };
}
