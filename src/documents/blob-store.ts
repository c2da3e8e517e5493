import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { syncDirectory } from '../store/log/write-ahead-log.js';

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Files kept by their sha-256 in `<data dir>/blobs/ab/abcdef…`: the same bytes are stored once, and a
 * blob is durable (written, fsynced, renamed into place) before any record names it.
 */
export class BlobStore {
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

  get(sha256: string): Buffer | undefined {
    const path = this.path(sha256);
    return existsSync(path) ? readFileSync(path) : undefined;
  }
}
