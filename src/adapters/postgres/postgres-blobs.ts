import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { BlobStore } from '../../core/ports/blob-store.js';
import { statement } from './statements.js';

/**
 * Documents' files in PostgreSQL, by their sha-256, for replicas: a file fetched by one replica is
 * served by every other. A put is durable once PostgreSQL committed it, before any record names it.
 */
export class PostgresBlobs implements BlobStore {
  constructor(private readonly pool: pg.Pool) {}

  async put(bytes: Buffer): Promise<string> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await this.pool.query(statement('blob-put'), [sha256, bytes]);
    return sha256;
  }

  async get(sha256: string): Promise<Buffer | undefined> {
    const { rows } = await this.pool.query<{ bytes: Buffer }>(statement('blob-get'), [sha256]);
    return rows[0]?.bytes;
  }
}
