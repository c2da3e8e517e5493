import pg from 'pg';
import type { Logger } from '../../core/logger.js';
import { unreachable } from './postgres-outage.js';
import type { PostgresReach } from './postgres-reach.js';

/**
 * The writer lease's own connection to PostgreSQL, made again whenever it fails: the lease outlives
 * a PostgreSQL restart or a network cut. Each statement may take at most `timeoutMs` (`bounded`;
 * connecting too, pg's connectionTimeoutMillis): a connection whose peer vanished without closing it is given up
 * then rather than after the kernel's keepalive (hours with its defaults), and the next statement
 * goes on a new one. What it hears is told to `reach` (this replica's readiness).
 */
export class LeaseConnection {
  private client: pg.Client | undefined;
  private failing = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly timeoutMs: number,
    private readonly logger: Logger,
    private readonly reach?: PostgresReach,
  ) {}

  /** `use`'s result, or undefined when PostgreSQL could not be reached (said once per outage in the log). */
  async tried<T>(use: (client: pg.Client) => Promise<T>): Promise<T | undefined> {
    try {
      const value = await this.bounded(use(await this.connected()));
      this.reach?.answered();
      if (this.failing) this.logger.info('PostgreSQL answers the writer lease again');
      this.failing = false;
      return value;
    } catch (error) {
      this.reach?.failed(error);
      if (!unreachable(error)) throw error;
      this.drop();
      if (!this.failing)
        this.logger.warn('PostgreSQL cannot be reached for the writer lease: asking again', { error: (error as Error).message });
      this.failing = true;
      return undefined;
    }
  }

  /**
   * `work`, or a 'Query read timeout' once `timeoutMs` passed without its answer. The timeout is told
   * only after the loop's next poll for I/O (setImmediate after the timer): on a starved event loop
   * the timer and the answer come due together, and pg's own query_timeout, a plain timer, then ran
   * first and gave up a renewal PostgreSQL had answered in time, costing the writer its trusted time.
   */
  private bounded<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_ok, fail) => {
      timer = setTimeout(() => setImmediate(() => fail(new Error('Query read timeout'))), this.timeoutMs);
    });
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  }

  private async connected(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      keepAlive: true,
      keepAliveInitialDelayMillis: this.timeoutMs,
      connectionTimeoutMillis: this.timeoutMs,
      // Which session is which replica's lease, for an operator's pg_stat_activity.
      application_name: `dataspace writer lease ${process.pid}`,
    });
    // Between statements a failed connection is only dropped: the next statement makes another.
    client.on('error', () => this.drop(client));
    try {
      await client.connect();
    } catch (error) {
      client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    return client;
  }

  private drop(client = this.client): void {
    if (this.client === client) this.client = undefined;
    client?.end().catch(() => undefined);
  }

  close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    return client ? client.end().catch(() => undefined) : Promise.resolve();
  }
}
