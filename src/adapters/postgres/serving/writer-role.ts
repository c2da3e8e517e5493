import express, { type Express } from 'express';
import type pg from 'pg';
import { CommitRecorder, type Retry } from './commit-recorder.js';
import { positionStamp } from './position-stamp.js';
import type { PostgresReach } from '../postgres-reach.js';
import { reachProbe } from './reach-probe.js';
import type { ServedParts, ServingRole } from './serving-role.js';
import type { WriterAddress } from './writer-address.js';

/**
 * The lease holder's part in a set where every replica serves: its commits recorded for the
 * followers, every answer stamped with its position, and its address published once it serves, so
 * followers forward writes to it.
 */
export class WriterRole implements ServingRole {
  readonly follower = false;
  private recorder: CommitRecorder | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly writer: WriterAddress,
    private readonly id: string,
    private readonly address: string,
    /** Told when a commit cannot be recorded: the followers would stay behind. */
    private readonly failed: (reason: string) => void,
    /** How a commit's row waits for PostgreSQL while it cannot be reached. */
    private readonly retry: Retry,
    /** What the lease connection hears from PostgreSQL: `/readyz` says 503 while it hears nothing. */
    private readonly reach?: PostgresReach,
  ) {}

  store<S>(inner: S): S {
    return inner;
  }

  async serve(app: Express, parts: ServedParts): Promise<Express> {
    const recorder = await CommitRecorder.start(this.pool, this.id, this.failed, this.retry);
    this.recorder = recorder;
    // Last: a commit is recorded once every follower of this process has it.
    parts.feed.follow('replica commits', recorder.follow);
    const outer = express();
    outer.disable('x-powered-by');
    outer.use(reachProbe(this.reach));
    outer.use(positionStamp(() => recorder.position(), 'writer'));
    outer.use(app);
    return outer;
  }

  /** Tells the followers where to forward writes: once this replica's app serves. */
  published(): Promise<void> {
    return this.writer.publish(this.id, this.address);
  }

  async close(): Promise<void> {
    await this.recorder?.flushed();
  }
}
