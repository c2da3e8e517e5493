import { createHash } from 'node:crypto';
import type pg from 'pg';
import { ServiceUnavailable } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import {
  DEFAULT_WINDOW,
  replayOf,
  type ActivityIdLookup,
  type Applied,
  type IdempotencyWindow,
  type ProcessedActivityIds,
} from '../../core/activities/idempotency.js';
import { FENCED } from './postgres-outage.js';
import { statement } from './statements.js';

/** Ids this writer claimed last, kept to answer the under-lock check and a quick retry without asking PostgreSQL. */
export const RECENT_IDS = 4096;

/** Claims between two deletes of the rows out of the window. */
const PRUNE_EVERY = 4096;

/** The id's key in its row: its SHA-256, whatever its length (up to 2,048 characters). */
const idKey = (activityId: string): Buffer => createHash('sha256').update(activityId).digest();

/**
 * A replica set's processed activity ids, in PostgreSQL (`dataspace_activity_id`,
 * deploy/postgres/activity-id-schema.sql): one indexed row an actor's id, looked up by its primary key
 * in well under a millisecond, where the store's lookup (ingest/processed-activity.rq) cost Virtuoso
 * 2–18 ms of CPU an activity.
 *
 * The row is written by `claim`, under the ingest lock before the activity's commit is sent to the
 * store, on the writer's fenced connections: a writer that dies once the store applied the activity
 * has left its row, so a retry on the next writer is answered with the first entry. The rule for a
 * commit that failed: its row names an entry the store never got; a retry that finds it looks for the
 * entry (the ingest's replay reads it from the store), finds none and is applied anew, its row
 * rewritten. A claim PostgreSQL cannot take fails the activity before anything is stored (503).
 *
 * The under-lock check needs no statement: this replica is the set's one writer, so an id claimed after
 * the first lookup was claimed here and is among the recent ones, unless more than `recentIds` were
 * claimed in between (then PostgreSQL is asked again).
 */
export class PostgresActivityIds implements ProcessedActivityIds {
  /** actor NUL id-key -> its application; insertion order is the eviction order. */
  private readonly recent = new Map<string, Applied>();
  private claimed = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
    private readonly window: IdempotencyWindow = DEFAULT_WINDOW,
    private readonly recentIds: number = RECENT_IDS,
  ) {}

  async start(now: Date): Promise<void> {
    await this.prune(now);
  }

  async lookup(actor: string, activityId: string, digest: string, now: Date): Promise<ActivityIdLookup> {
    const key = idKey(activityId);
    const memo = `${actor}\u0000${key.toString('base64url')}`;
    // Taken before PostgreSQL is asked: an id claimed after this was claimed after the answer too.
    const mark = this.claimed;
    const found = this.recent.get(memo) ?? (await this.stored(actor, key, now));
    const latest = async (at: Date): Promise<Applied | undefined> =>
      this.recent.get(memo) ?? (this.claimed - mark > this.recentIds ? this.stored(actor, key, at) : found);
    return { replay: replayOf(found, digest, now, this.window), again: async (at) => replayOf(await latest(at), digest, at, this.window) };
  }

  /** Before the activity's commit is sent: its row, then the recent ones. */
  async claim(actor: string, activityId: string, digest: string, entry: string, at: Date): Promise<void> {
    const key = idKey(activityId);
    try {
      await this.pool.query(statement('activity-id-claim'), [actor, key, entry, digest, at]);
    } catch (error) {
      if ((error as { code?: string }).code === FENCED)
        throw new ServiceUnavailable('This replica no longer holds the writer lease: the activity is not applied; retry', 1);
      throw error;
    }
    const memo = `${actor}\u0000${key.toString('base64url')}`;
    this.recent.delete(memo);
    this.recent.set(memo, { entry, at: at.getTime(), digest });
    if (this.recent.size > this.recentIds) this.recent.delete(this.recent.keys().next().value!);
    if (++this.claimed % PRUNE_EVERY === 0)
      this.prune(at).catch((error: unknown) =>
        this.logger.warn('could not delete activity ids out of the window', { error: String(error) }),
      );
  }

  /** The claim wrote everything: the commit adds nothing here. */
  remember(): void {}

  private async stored(actor: string, key: Buffer, now: Date): Promise<Applied | undefined> {
    const since = new Date(now.getTime() - this.window.ms);
    const { rows } = await this.pool.query<{ entry: string; digest: string; at: Date }>(statement('activity-id-find'), [actor, key, since]);
    const row = rows[0];
    return row && { entry: row.entry, digest: row.digest, at: row.at.getTime() };
  }

  private async prune(now: Date): Promise<void> {
    await this.pool.query(statement('activity-id-prune'), [new Date(now.getTime() - this.window.ms)]);
  }
}
