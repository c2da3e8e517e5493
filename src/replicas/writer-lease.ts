import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import type { Logger } from '../logger.js';
import { LOCKS } from './postgres-state.js';
import { statement } from './statements.js';

export interface LeaseOptions {
  checkMs: number;
  takeoverMs: number;
  logger: Logger;
  /** Called once if the lease is lost (its connection failed or stopped answering): stop writing at once. */
  lost: (reason: string) => void;
}

/**
 * The writer lease of a replica set: a PostgreSQL session advisory lock on a connection of its own.
 * One replica holds it and runs the node; the others wait on standby in PostgreSQL's lock queue.
 * PostgreSQL lets the lock go when the holder's session ends, so a replica killed with SIGKILL hands it
 * on as soon as its socket closes. The holder checks its session every `checkMs`: when a check fails
 * or takes longer, PostgreSQL may already have let another replica take the lease, so the holder must stop.
 */
export class WriterLease {
  private check: NodeJS.Timeout | undefined;
  private ended = false;

  private constructor(
    private readonly client: pg.Client,
    private readonly options: LeaseOptions,
    readonly holder: string,
  ) {}

  /** Waits until this replica holds the lease (`standby` is told if another holds it). */
  static async acquire(databaseUrl: string, options: LeaseOptions & { standby?: () => void }): Promise<WriterLease> {
    const client = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
    // Until the lease is watched, a failed connection rejects the query in flight (acquire fails); an
    // error between queries must not throw from an event with no listener.
    const early = (error: Error) => options.logger.warn('the writer lease connection failed', { error: error.message });
    client.on('error', early);
    await client.connect();
    // Unique per process even where every replica is pid 1 of a container with a reused name.
    const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    const { rows } = await client.query<{ held: boolean }>(statement('lease-try'), [LOCKS.writer]);
    if (!rows[0]?.held) {
      options.logger.info('standby: another replica holds the writer lease');
      options.standby?.();
      // Waits in PostgreSQL's lock queue: granted the moment the holder's session ends, in the order the
      // standbys asked. A connection lost meanwhile fails the wait (and the start).
      await client.query(statement('lease-wait'), [LOCKS.writer]);
    }
    const lease = new WriterLease(client, options, holder);
    await lease.takeOver();
    lease.watch();
    return lease;
  }

  /** Records this replica as the holder; after a holder that died, first waits `takeoverMs`. */
  private async takeOver(): Promise<void> {
    const { rows } = await this.client.query<{ holder: string; released: boolean }>(statement('writer-previous'));
    const previous = rows[0];
    if (previous && !previous.released) {
      this.options.logger.warn('taking the writer lease from a replica that stopped without letting it go', {
        previous: previous.holder,
        waitMs: this.options.takeoverMs,
      });
      await new Promise((ok) => setTimeout(ok, this.options.takeoverMs));
    }
    await this.client.query(statement('writer-take'), [this.holder]);
    this.options.logger.info('holding the writer lease', { holder: this.holder });
  }

  private watch(): void {
    const lose = (reason: string) => {
      if (this.ended) return;
      this.ended = true;
      clearInterval(this.check);
      this.options.lost(reason);
    };
    this.client.on('error', (error) => lose(`its connection failed: ${error.message}`));
    this.client.on('end', () => lose('its connection ended'));
    this.check = setInterval(() => {
      let answered = false;
      // setImmediate: after an event-loop stall the timer runs before the answer already waiting on the
      // socket is read; only an answer still missing after that poll counts as late.
      const late = setTimeout(
        () => setImmediate(() => answered || lose(`its check took longer than ${this.options.checkMs} ms`)),
        this.options.checkMs,
      );
      this.client.query(statement('lease-check')).then(
        () => {
          answered = true;
          clearTimeout(late);
        },
        (error: Error) => lose(`its check failed: ${error.message}`),
      );
    }, this.options.checkMs);
    this.check.unref();
  }

  /** Lets the lease go cleanly (a graceful stop): the next holder starts without waiting. */
  async release(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.check);
    try {
      await this.client.query(statement('writer-release'), [this.holder]);
      await this.client.query(statement('lease-unlock'), [LOCKS.writer]);
    } finally {
      await this.client.end();
    }
  }
}
