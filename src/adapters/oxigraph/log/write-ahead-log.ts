import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fdatasync,
  fdatasyncSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  write,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { Change } from '../../../core/ports/quad-store.js';
import { syncDirectory } from '../../../core/util/sync-directory.js';

const fdatasyncAsync = promisify(fdatasync);
const writeAsync = (fd: number, buffer: Buffer, offset: number, length: number): Promise<number> =>
  new Promise((resolve, reject) => write(fd, buffer, offset, length, null, (error, n) => (error ? reject(error) : resolve(n))));

const HEADER = 8; // u32 length + u32 checksum

function checksum(payload: Buffer): number {
  return createHash('sha256').update(payload).digest().readUInt32BE(0);
}

/** Log files are numbered by generation; a snapshot of generation G holds everything in logs before G. */
export const logFileName = (generation: number): string => `changes-${String(generation).padStart(8, '0')}.log`;
const LOG_FILE = /^changes-(\d{8})\.log$/;

/** Generations of the log files in `dir`, ascending. */
export function logGenerations(dir: string): number[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((f) => LOG_FILE.exec(f))
    .filter((m) => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

export function encodeRecord(change: Change): Buffer {
  // The ops only: a change's notes are for the change feed's followers, not part of the history.
  const payload = Buffer.from(JSON.stringify({ ops: change.ops }), 'utf8');
  const header = Buffer.alloc(HEADER);
  header.writeUInt32BE(payload.length, 0);
  header.writeUInt32BE(checksum(payload), 4);
  return Buffer.concat([header, payload]);
}

export interface ReplayResult {
  changes: Change[];
  /** Bytes of a torn or corrupt tail that were dropped. */
  droppedBytes: number;
}

function frameAt(data: Buffer, offset: number): Buffer | undefined {
  if (offset + HEADER > data.length) return undefined;
  const end = offset + HEADER + data.readUInt32BE(offset);
  if (end > data.length) return undefined;
  const payload = data.subarray(offset + HEADER, end);
  return checksum(payload) === data.readUInt32BE(offset + 4) ? payload : undefined;
}

/**
 * Every intact record up to the first torn or corrupt one, without changing the file. A damaged record
 * followed by an intact one is not a torn tail (appends are sequential) but damage in the middle.
 */
export function readLog(path: string): ReplayResult & { validBytes: number; damagedInMiddle: boolean } {
  if (!existsSync(path)) return { changes: [], droppedBytes: 0, validBytes: 0, damagedInMiddle: false };
  const data = readFileSync(path);
  const changes: Change[] = [];
  let offset = 0;
  for (let payload = frameAt(data, 0); payload !== undefined; payload = frameAt(data, offset)) {
    try {
      changes.push(JSON.parse(payload.toString('utf8')) as Change);
    } catch {
      break;
    }
    offset += HEADER + payload.length;
  }
  let damagedInMiddle = false;
  if (offset + HEADER <= data.length) {
    const declaredEnd = offset + HEADER + data.readUInt32BE(offset);
    damagedInMiddle = declaredEnd < data.length && frameAt(data, declaredEnd) !== undefined;
  }
  return { changes, droppedBytes: data.length - offset, validBytes: offset, damagedInMiddle };
}

/** Cuts a log back to its intact prefix. */
export function truncateLog(path: string, validBytes: number): void {
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, validBytes);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Reads every intact record; stops at the first torn or corrupt one and truncates the file there. */
export function replayLog(path: string): ReplayResult {
  const { changes, droppedBytes, validBytes } = readLog(path);
  if (droppedBytes > 0) truncateLog(path, validBytes);
  return { changes, droppedBytes };
}

interface Pending {
  record: Buffer;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** Switches appends to the next generation's file; queued in order with the records around it. */
interface Rotation {
  fd: number;
}

/** How group commit behaved: records per fdatasync. */
export interface LogStats {
  records: number;
  syncs: number;
  maxBatch: number;
  /** Batch size → number of syncs that wrote that many records. */
  batchSizes: Map<number, number>;
}

/**
 * Append-only log of changes, one file per generation. Records are framed (length, checksum, JSON)
 * and group-committed: every append waiting while one fsync runs is written and synced by the next
 * one together. `rotate()` starts the next generation at an exact point in the order of appends, so
 * a snapshot of the state at that point plus the newer files is the whole history.
 */
export class WriteAheadLog {
  private fd: number;
  private pending: (Pending | Rotation)[] = [];
  private flushing: Promise<void> | undefined;
  private bytes: number;
  private gen: number;
  private closed = false;
  readonly stats: LogStats = { records: 0, syncs: 0, maxBatch: 0, batchSizes: new Map() };

  private readonly dir: string;

  /** Appends to `path`; `rotate()` continues in `changes-<generation + 1>.log` beside it. */
  constructor(
    path: string,
    private readonly fsync = true,
    generation = 0,
  ) {
    this.dir = dirname(path);
    this.gen = generation;
    const created = !existsSync(path);
    this.fd = openSync(path, 'a', 0o600);
    if (created && fsync) syncDirectory(this.dir);
    this.bytes = statSync(path).size;
  }

  /** The generation new appends go to. */
  get generation(): number {
    return this.gen;
  }

  /** Bytes appended to the current generation (including records still being written). */
  get size(): number {
    return this.bytes;
  }

  append(change: Change): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The change log is closed'));
    const record = encodeRecord(change);
    this.bytes += record.length;
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ record, resolve, reject });
      this.scheduleFlush();
    });
  }

  /**
   * Starts the next generation. Appends made before this call land in the old file, later ones in
   * the new file; returns the new generation number.
   */
  rotate(): number {
    this.gen += 1;
    const fd = openSync(join(this.dir, logFileName(this.gen)), 'a', 0o600);
    if (this.fsync) syncDirectory(this.dir);
    this.bytes = 0;
    this.pending.push({ fd });
    this.scheduleFlush();
    return this.gen;
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    // fsync runs on the thread pool, so requests keep arriving meanwhile and join the next batch.
    this.flushing = (async () => {
      while (this.pending.length > 0) await this.flushBatch();
      this.flushing = undefined;
    })();
  }

  private async flushBatch(): Promise<void> {
    const rotationAt = this.pending.findIndex((p) => 'fd' in p);
    const batch = (rotationAt < 0 ? this.pending.splice(0) : this.pending.splice(0, rotationAt)) as Pending[];
    if (batch.length > 0) {
      try {
        const buffer = Buffer.concat(batch.map((p) => p.record));
        let written = 0;
        while (written < buffer.length) written += await writeAsync(this.fd, buffer, written, buffer.length - written);
        if (this.fsync) await fdatasyncAsync(this.fd);
        this.count(batch.length);
        for (const p of batch) p.resolve();
      } catch (error) {
        for (const p of batch) p.reject(error as Error);
      }
    }
    const rotation = this.pending[0];
    if (rotationAt >= 0 && rotation !== undefined && 'fd' in rotation) {
      this.pending.shift();
      closeSync(this.fd);
      this.fd = rotation.fd;
    }
  }

  private count(records: number): void {
    this.stats.records += records;
    this.stats.syncs += 1;
    this.stats.maxBatch = Math.max(this.stats.maxBatch, records);
    this.stats.batchSizes.set(records, (this.stats.batchSizes.get(records) ?? 0) + 1);
  }

  /** Waits for everything appended so far to be durable. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  async close(): Promise<void> {
    await this.flush();
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
