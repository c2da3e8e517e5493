import type pg from 'pg';
import { statement } from '../statements.js';

/** How long a follower trusts the writer's address it read before reading it again. */
const FRESH_MS = 2000;

/**
 * Where the replica holding the writer lease takes forwarded writes (`dataspace_writer_address`): the
 * writer records it once it serves; a follower reads it when it has none fresh, and forgets it when
 * the writer there refuses connections.
 */
export class WriterAddress {
  private known: { address: string; at: number } | undefined;

  constructor(private readonly pool: pg.Pool) {}

  async publish(holder: string, address: string): Promise<void> {
    await this.pool.query(statement('writer-address-put'), [holder, address]);
  }

  async current(): Promise<string | undefined> {
    if (this.known && Date.now() - this.known.at < FRESH_MS) return this.known.address;
    const { rows } = await this.pool.query<{ address: string }>(statement('writer-address'));
    this.known = rows[0] && { address: rows[0].address, at: Date.now() };
    return this.known?.address;
  }

  forget(): void {
    this.known = undefined;
  }
}
