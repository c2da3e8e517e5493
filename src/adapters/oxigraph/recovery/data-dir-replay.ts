import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../../core/logger.js';
import type { Change } from '../../../core/ports/quad-store.js';
import { snapshotFileName, TRAILER_PREFIX } from './snapshot-files.js';
import { logFileName, logGenerations, readLog, truncateLog } from '../log/write-ahead-log.js';

export class StoreRecoveryError extends Error {
  override readonly name = 'StoreRecoveryError';
}

/** Where a replay of the data dir goes: the node's store, or a copy of part of it (the SPARQL engine's). */
export interface ReplaySink {
  /**
   * Loads the finished snapshot at `path`, whose trailer says it holds `quads` quads; answers how many
   * quads it read, which must be that many.
   */
  snapshot(path: string, quads: number): number;
  /** The changes of one log, in commit order. */
  changes(changes: Change[]): void;
}

export interface ReplayReport {
  snapshotQuads: number;
  snapshotMs: number;
  /** Generations of the logs replayed, oldest first. */
  logs: number[];
  changes: number;
  droppedBytes: number;
}

/** Reads the trailer line a finished snapshot ends with; undefined when it is missing. */
function trailerQuads(path: string): number | undefined {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, 256);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const lastLine = buffer.toString('utf8').trimEnd().split('\n').at(-1) ?? '';
    const match = /quads=(\d+)$/.exec(lastLine);
    return lastLine.startsWith(TRAILER_PREFIX) && match ? Number(match[1]) : undefined;
  } finally {
    closeSync(fd);
  }
}

/** Loads a snapshot into `sink` and checks it holds as many quads as its trailer says. */
export function replaySnapshot(path: string, sink: Pick<ReplaySink, 'snapshot'>): number {
  const expected = trailerQuads(path);
  if (expected === undefined) throw new StoreRecoveryError(`Snapshot ${path} has no completion trailer: it is damaged`);
  const loaded = sink.snapshot(path, expected);
  if (loaded !== expected)
    throw new StoreRecoveryError(`Snapshot ${path} holds ${loaded} quads but its trailer says ${expected}: it is damaged`);
  return loaded;
}

/**
 * Replays the data dir into `sink`: the snapshot of generation `base` (unless `loaded`, when the caller
 * already holds that state, e.g. from a memory image), then every log from `base` on. A torn or corrupt
 * tail of the newest log is cut off with a warning (it was never acknowledged: answers wait for fsync);
 * damage anywhere else, a missing log or a log removed while it was read stops the replay, since going
 * on would drop acknowledged changes. `readOnly` (a reader beside a running node): nothing is cut, as
 * the tail may be a record being written right now.
 */
export function replayDataDir(
  dir: string,
  base: number | undefined,
  sink: ReplaySink,
  options: { readOnly: boolean; logger: Logger; loaded?: boolean },
): ReplayReport {
  let snapshotQuads = 0;
  let snapshotMs = 0;
  if (base !== undefined && !options.loaded) {
    const t = performance.now();
    snapshotQuads = replaySnapshot(join(dir, snapshotFileName(base)), sink);
    snapshotMs = Math.round(performance.now() - t);
  }
  const logs = logGenerations(dir).filter((g) => base === undefined || g >= base);
  if (base !== undefined && logs.length > 0 && logs[0] !== base) {
    throw new StoreRecoveryError(`The change log ${logFileName(base)} that follows ${snapshotFileName(base)} is missing`);
  }
  let changes = 0;
  let droppedBytes = 0;
  logs.forEach((generation, i) => {
    const path = join(dir, logFileName(generation));
    const replay = readLog(path);
    // A newer snapshot may have retired this log while it was read (a reader beside a running node).
    if (!existsSync(path)) throw new StoreRecoveryError(`${path} was removed while it was read`);
    if (replay.damagedInMiddle) {
      throw new StoreRecoveryError(
        `${path} has a damaged record followed by intact ones (${replay.droppedBytes} bytes from offset ${replay.validBytes}): refusing to start without the changes after it; restore the file from a backup or cut it at that offset by hand to accept the loss`,
      );
    }
    if (replay.droppedBytes > 0) {
      const later = logs.slice(i + 1).filter((g) => readLog(join(dir, logFileName(g))).changes.length > 0);
      if (later.length > 0) {
        throw new StoreRecoveryError(
          `${path} is damaged ${replay.droppedBytes} bytes before its end, and later logs hold changes: refusing to start without the changes it held`,
        );
      }
      if (!options.readOnly) truncateLog(path, replay.validBytes);
      options.logger.warn('dropped a torn or corrupt tail of the change log', { droppedBytes: replay.droppedBytes, log: path });
      droppedBytes += replay.droppedBytes;
    }
    sink.changes(replay.changes);
    changes += replay.changes.length;
  });
  return { snapshotQuads, snapshotMs, logs, changes, droppedBytes };
}
