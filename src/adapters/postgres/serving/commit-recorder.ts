import type pg from 'pg';
import type { NodeChange } from '../../../core/store/change-feed.js';
import { statement } from '../statements.js';
import { followedNotes, reloadsOf, type CommitRow } from './commit-rows.js';

/** Runs a write until PostgreSQL answers it, or gives up (postgres-outage.ts untilAnswered). */
export type Retry = <T>(write: () => Promise<T>, what: string) => Promise<T>;

/**
 * Positions a new writer skips past the last one recorded: a deposed writer still running (until the
 * lease's fencing stops it) records its few last commits there, not over the new writer's.
 */
const WRITER_GAP = 1000;
/** Rows written in one statement, at most. */
const BATCH = 200;
/** Commits kept for followers; every this many, the older are deleted. */
const KEEP = 20_000;

/**
 * The writer's side of following: each commit of the node, once published on its change feed, gets
 * the next position and is written to `dataspace_commit` (with a notification) in commit order, behind
 * one another. The position is known at once, so an answer can carry it (`position()`), before its
 * row is written: a follower asked for it waits for the row. While PostgreSQL cannot be reached the
 * rows wait and are written once it answers (`retry`, as the catalog's rows are): the followers cannot
 * read PostgreSQL meanwhile either. A row that still cannot be written, or that PostgreSQL refuses,
 * leaves the followers' caches behind the store: the writer stops (`failed`), as it does when its
 * catalog cannot be written.
 */
export class CommitRecorder {
  private last: number;
  private queued: CommitRow[] = [];
  private writing: Promise<void> | undefined;
  private sincePrune = 0;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly writer: string,
    base: number,
    private readonly failed: (reason: string) => void,
    private readonly retry: Retry,
  ) {
    this.last = base;
  }

  /** Starts after the last recorded position (and a gap); the first row tells followers to read everything again. */
  static async start(pool: pg.Pool, writer: string, failed: (reason: string) => void, retry: Retry): Promise<CommitRecorder> {
    const { rows } = await pool.query<{ position: string }>(statement('commit-last'));
    const recorder = new CommitRecorder(pool, writer, Number(rows[0]?.position ?? 0) + WRITER_GAP, failed, retry);
    recorder.record({ notes: [], reload: ['all'] });
    await recorder.flushed();
    return recorder;
  }

  /** The change feed's follower. */
  readonly follow = (committed: NodeChange): void => {
    this.record({ notes: followedNotes(committed), reload: reloadsOf(committed.change) });
  };

  /** The position of the last commit published: every answer given after it covers it. */
  position(): number {
    return this.last;
  }

  /** Resolves once every row recorded so far is written. */
  async flushed(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private record(row: Omit<CommitRow, 'position'>): void {
    this.queued.push({ position: ++this.last, ...row });
    this.flush();
  }

  private flush(): void {
    if (this.writing) return;
    this.writing = this.write()
      .catch((error: unknown) => this.failed(`a commit could not be recorded for the other replicas: ${(error as Error).message}`))
      .finally(() => {
        this.writing = undefined;
        if (this.queued.length > 0) this.flush();
      });
  }

  private async write(): Promise<void> {
    while (this.queued.length > 0) {
      const rows = this.queued.splice(0, BATCH);
      // Written again whole when its answer was lost: rows already in are left as they are.
      await this.retry(() => this.pool.query(statement('commit-append'), [this.writer, JSON.stringify(rows)]), 'commits for the followers');
      this.sincePrune += rows.length;
      if (this.sincePrune >= KEEP / 4) {
        this.sincePrune = 0;
        const oldest = rows.at(-1)!.position - KEEP;
        await this.retry(() => this.pool.query(statement('commit-prune'), [oldest]), 'the pruning of old commits');
      }
    }
  }
}
