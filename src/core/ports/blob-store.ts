import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { syncDirectory } from '../util/sync-directory.js';

const SHA256 = /^[0-9a-f]{64}$/;

/** Documents' files by their sha-256: the same bytes are stored once, and durable before any record names them. */
export interface BlobStore {
  /** Stores `bytes` (once), durably; their sha-256 in hex. */
  put(bytes: Buffer): Promise<string>;
  get(sha256: string): Promise<Buffer | undefined>;
}

/**
 * Files kept by their sha-256 in `<data dir>/blobs/ab/abcdef…`: a blob is durable (written, fsynced,
 * renamed into place) before any record names it. Replicas keep theirs in PostgreSQL (adapters/postgres/postgres-blobs.ts).
 */
export class FileBlobStore implements BlobStore {
  constructor(
    private readonly dir: string,
    private readonly fsync = true,
  ) {}

  private path(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`Not a sha-256: ${sha256}`);
    return join(this.dir, sha256.slice(0, 2), sha256);
  }

  async put(bytes: Buffer): Promise<string> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const path = this.path(sha256);
    if (existsSync(path)) return sha256;
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(temporary, 'w');
    try {
      await handle.write(bytes);
      if (this.fsync) await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    if (this.fsync) syncDirectory(dirname(path));
    return sha256;
  }

  async get(sha256: string): Promise<Buffer | undefined> {
    const path = this.path(sha256);
    return existsSync(path) ? readFile(path) : undefined;
  }
}
