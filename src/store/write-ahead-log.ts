import { createHash } from 'node:crypto';
import { closeSync, existsSync, fdatasyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { fdatasync, write } from 'node:fs';
import { promisify } from 'node:util';
import type { Change } from './quad-store.js';

const fdatasyncAsync = promisify(fdatasync);
const writeAsync = (fd: number, buffer: Buffer, offset: number, length: number): Promise<number> =>
  new Promise((resolve, reject) => write(fd, buffer, offset, length, null, (error, n) => (error ? reject(error) : resolve(n))));

const HEADER = 8; // u32 length + u32 checksum

function checksum(payload: Buffer): number {
  return createHash('sha256').update(payload).digest().readUInt32BE(0);
}

export interface ReplayResult {
  changes: Change[];
  /** Bytes of a torn or corrupt tail that were dropped. */
  droppedBytes: number;
}

/** Reads every intact record; stops at the first torn or corrupt one and truncates the file there. */
export function replayLog(path: string): ReplayResult {
  if (!existsSync(path)) return { changes: [], droppedBytes: 0 };
  const data = readFileSync(path);
  const changes: Change[] = [];
  let offset = 0;
  while (offset + HEADER <= data.length) {
    const length = data.readUInt32BE(offset);
    const sum = data.readUInt32BE(offset + 4);
    const end = offset + HEADER + length;
    if (end > data.length) break;
    const payload = data.subarray(offset + HEADER, end);
    if (checksum(payload) !== sum) break;
    try {
      changes.push(JSON.parse(payload.toString('utf8')) as Change);
    } catch {
      break;
    }
    offset = end;
  }
  const droppedBytes = data.length - offset;
  if (droppedBytes > 0) {
    const fd = openSync(path, 'r+');
    try {
      ftruncateSync(fd, offset);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  return { changes, droppedBytes };
}

interface Pending {
  record: Buffer;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Append-only log of changes. Records are framed (length, checksum, JSON) and group-committed:
 * every append waiting while one fsync runs is written and synced by the next one together.
 */
export class WriteAheadLog {
  private fd: number;
  private pending: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private bytes: number;

  constructor(private readonly path: string, private readonly fsync = true) {
    this.fd = openSync(path, 'a');
    this.bytes = existsSync(path) ? readFileSync(path).length : 0;
  }

  get size(): number {
    return this.bytes;
  }

  append(change: Change): Promise<void> {
    const payload = Buffer.from(JSON.stringify(change), 'utf8');
    const header = Buffer.alloc(HEADER);
    header.writeUInt32BE(payload.length, 0);
    header.writeUInt32BE(checksum(payload), 4);
    const record = Buffer.concat([header, payload]);
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ record, resolve, reject });
      this.scheduleFlush();
    });
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
    const batch = this.pending;
    this.pending = [];
    try {
      const buffer = Buffer.concat(batch.map((p) => p.record));
      let written = 0;
      while (written < buffer.length) written += await writeAsync(this.fd, buffer, written, buffer.length - written);
      if (this.fsync) await fdatasyncAsync(this.fd);
      this.bytes += buffer.length;
      for (const p of batch) p.resolve();
    } catch (error) {
      for (const p of batch) p.reject(error as Error);
    }
  }

  /** Waits for everything appended so far to be durable. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /** Starts a new empty log (after a snapshot has captured everything in it). */
  reset(): void {
    ftruncateSync(this.fd, 0);
    fdatasyncSync(this.fd);
    this.bytes = 0;
  }

  async close(): Promise<void> {
    await this.flush();
    closeSync(this.fd);
  }
}
