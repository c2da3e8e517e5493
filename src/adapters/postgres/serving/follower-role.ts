import express, { type Express } from 'express';
import type pg from 'pg';
import { errorHandler } from '../../http/error-handler.js';
import type { Logger } from '../../../core/logger.js';
import { CommitFollower } from './commit-follower.js';
import { followMemory } from './follow-memory.js';
import { followerStore } from './follower-state.js';
import { forwardWrites } from './forward-writes.js';
import { positionStamp } from './position-stamp.js';
import type { PostgresReach } from '../postgres-reach.js';
import { reachProbe } from './reach-probe.js';
import { readAfter } from './read-after.js';
import type { ServedParts, ServingRole } from './serving-role.js';
import type { WriterAddress } from './writer-address.js';

export interface FollowerOptions {
  databaseUrl: string;
  /** How often commits are read whatever the notifications say (DATASPACE_REPLICA_FOLLOW_MS). */
  followMs: number;
  /** How long a read that sent a position waits for it (DATASPACE_REPLICA_READ_WAIT_MS). */
  readWaitMs: number;
  /** What the lease connection hears from PostgreSQL: `/readyz` says 503 while it hears nothing. */
  reach?: PostgresReach;
}

/**
 * A replica that does not hold the writer lease, serving: reads from the shared store and PostgreSQL,
 * its memory following the writer's commits, its writes forwarded to the writer.
 */
export class FollowerRole implements ServingRole {
  readonly follower = true;
  readonly store = followerStore;
  private inFlight = 0;
  private readonly idle: (() => void)[] = [];

  private constructor(
    private readonly commits: CommitFollower,
    private readonly writer: WriterAddress,
    private readonly options: FollowerOptions,
    private readonly logger: Logger,
  ) {}

  /** Before the node reads its memory from the store: commits after this point are applied again, never missed. */
  static async begin(pool: pg.Pool, writer: WriterAddress, options: FollowerOptions, logger: Logger): Promise<FollowerRole> {
    const commits = new CommitFollower(pool, options.databaseUrl, options.followMs, logger);
    await commits.begin();
    return new FollowerRole(commits, writer, options, logger);
  }

  async serve(app: Express, parts: ServedParts): Promise<Express> {
    await this.commits.start(followMemory(parts, this.logger));
    const outer = express();
    outer.disable('x-powered-by');
    outer.use((_req, res, next) => {
      this.inFlight++;
      res.once('close', () => {
        if (--this.inFlight === 0) for (const done of this.idle.splice(0)) done();
      });
      next();
    });
    outer.use(reachProbe(this.options.reach));
    outer.use(positionStamp(() => this.commits.position, 'follower'));
    outer.use(readAfter(this.commits, this.options.readWaitMs));
    outer.use(forwardWrites(this.writer, this.logger));
    outer.use(app);
    outer.use(errorHandler(this.logger));
    return outer;
  }

  /** Resolves once no request is in this follower's hands (it serves no more: the writer's node does). */
  drained(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((done) => this.idle.push(done));
  }

  close(): Promise<void> {
    return this.commits.close();
  }
}
