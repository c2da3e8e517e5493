import pg from 'pg';
import type { Logger } from '../../../core/logger.js';
import { statement } from '../statements.js';
import type { CommitRow, Reload } from './commit-rows.js';

/** Commits read in one statement, at most. */
const PAGE = 500;

/** Applies commits to this replica's memory; resolves once reads see them. */
export type ApplyCommits = (rows: readonly CommitRow[]) => Promise<void>;

interface Waiter {
  position: number;
  done: (reached: boolean) => void;
}

/**
 * A replica's following of the writer's commits (commit-recorder.ts): woken by PostgreSQL's
 * `LISTEN dataspace_commit` as each is recorded, and every `pollMs` whatever it heard (a notification
 * is lost while its connection is down). Rows are applied in order; `position` moves only once they
 * are, so a read that waits for a position (`reached`) sees the writes up to it. A gap in the
 * positions (rows pruned before this replica read them) is applied as `all`: everything read again.
 */
export class CommitFollower {
  /** The last commit applied here. */
  position = 0;
  private listener: pg.Client | undefined;
  private connecting = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private waiters: Waiter[] = [];
  private closed = false;

  private apply: ApplyCommits = () => Promise.resolve();

  constructor(
    private readonly pool: pg.Pool,
    private readonly databaseUrl: string,
    private readonly pollMs: number,
    private readonly logger: Logger,
  ) {}

  /** Takes the last commit recorded now as applied: called before this replica reads its memory from the store. */
  async begin(): Promise<void> {
    const { rows } = await this.pool.query<{ position: string }>(statement('commit-last'));
    this.position = Number(rows[0]?.position ?? 0);
  }

  /** Follows the commits after `begin`'s, applying them with `apply`. */
  async start(apply: ApplyCommits): Promise<void> {
    this.apply = apply;
    await this.listen();
    this.timer = setInterval(() => {
      if (!this.listener) void this.listen();
      this.poll();
    }, this.pollMs);
    this.timer.unref();
  }

  /** Resolves true once `position` is applied here, false after `waitMs`. */
  reached(position: number, waitMs: number): Promise<boolean> {
    if (position <= this.position) return Promise.resolve(true);
    this.poll();
    return new Promise((done) => {
      const waiter: Waiter = { position, done };
      const timeout = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        done(false);
      }, waitMs);
      waiter.done = (reached) => {
        clearTimeout(timeout);
        done(reached);
      };
      this.waiters.push(waiter);
    });
  }

  /** Reads and applies what was recorded after `position`; a call while one runs makes it read once more. */
  poll(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.catchUp()
      .catch((error: unknown) =>
        this.logger.warn('could not follow the writer’s commits: trying again', { error: (error as Error).message }),
      )
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.poll();
        }
      });
  }

  private async catchUp(): Promise<void> {
    for (;;) {
      const { rows } = await this.pool.query<{ position: string; notes: CommitRow['notes']; reload: Reload[] }>(statement('commit-after'), [
        this.position,
        PAGE,
      ]);
      if (rows.length === 0) return;
      const commits: CommitRow[] = rows.map((row) => ({ position: Number(row.position), notes: row.notes, reload: row.reload }));
      const first = commits[0]!;
      // Rows deleted before this replica read them: what they changed is unknown, so everything is read again.
      if (first.position !== this.position + 1 && !first.reload.includes('all')) first.reload = [...first.reload, 'all'];
      await this.apply(commits);
      this.position = commits.at(-1)!.position;
      const reached = this.waiters.filter((w) => w.position <= this.position);
      this.waiters = this.waiters.filter((w) => w.position > this.position);
      for (const waiter of reached) waiter.done(true);
      if (rows.length < PAGE) return;
    }
  }

  private async listen(): Promise<void> {
    if (this.connecting || this.closed) return;
    this.connecting = true;
    // Named, so an operator (or a test) can tell each replica's listener in pg_stat_activity.
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      keepAlive: true,
      application_name: `dataspace follower ${process.pid}`,
    });
    const lost = (error?: Error) => {
      if (this.listener !== client) return;
      this.listener = undefined;
      if (!this.closed) this.logger.warn('the commit notifications’ connection ended: polling until it is back', { error: error?.message });
      client.end().catch(() => undefined);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', () => this.poll());
    try {
      await client.connect();
      await client.query(statement('commit-listen'));
      this.listener = client;
      // Commits recorded while it was not listening.
      this.poll();
    } catch (error) {
      this.logger.warn('could not listen for commit notifications: polling', { error: (error as Error).message });
      await client.end().catch(() => undefined);
    } finally {
      this.connecting = false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    for (const waiter of this.waiters) waiter.done(false);
    this.waiters = [];
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.running;
  }
}
