import { createHash } from 'node:crypto';
import type { QueryBank } from '../queries/query-bank.js';
import { dateTime, iri, str } from '../queries/query-bank.js';
import type { QuadStore } from '../ports/quad-store.js';
import {
  DEFAULT_WINDOW,
  replayOf,
  type ActivityIdLookup,
  type Applied,
  type IdempotencyWindow,
  type ProcessedActivityIds,
} from './idempotency.js';

/** Ids this process applied last, kept to answer the under-lock check and a quick retry without the store. */
export const RECENT_IDS = 4096;

/**
 * An id may be as long as the body allows (1 MiB): kept by its digest, the ids remembered cost the
 * same memory whatever their length.
 */
function keyOf(actor: string, activityId: string): string {
  return createHash('sha256').update(actor).update('\u0000').update(activityId).digest('base64url');
}

/**
 * A replica's processed activity ids: the store is the record (the id and digest are on the
 * activity-log entry, written in the activity's commit), asked one id at a time
 * (ingest/processed-activity.rq). Nothing is loaded at start and memory does not grow with the ids
 * stored: what is kept is the last `recentIds` ids this process applied.
 *
 * The under-lock check needs no store: this process is the set's one writer, and a store read sees
 * every change committed before it was asked, so an id applied after the first lookup was applied
 * here and is among the recent ones, unless more than `recentIds` were applied in between (then
 * the store is asked again). No per-actor count bound: the window alone bounds what is answered
 * (docs/decisions.md).
 */
export class StoredActivityIds implements ProcessedActivityIds {
  /** keyOf(actor, id) -> its application; insertion order is the eviction order. */
  private readonly recent = new Map<string, Applied>();
  /** Ids remembered so far: how the under-lock check knows whether the recent ones still cover it. */
  private remembered = 0;

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly window: IdempotencyWindow = DEFAULT_WINDOW,
    private readonly recentIds: number = RECENT_IDS,
  ) {}

  async start(): Promise<void> {}

  async lookup(actor: string, activityId: string, digest: string, now: Date): Promise<ActivityIdLookup> {
    const key = keyOf(actor, activityId);
    // Taken before the store is asked: an id remembered after this was committed after it too.
    const mark = this.remembered;
    const found = this.recent.get(key) ?? (await this.stored(actor, activityId, now));
    // Under the lock: what this process applied since, or, when more came between than it keeps, the store.
    const latest = async (at: Date): Promise<Applied | undefined> =>
      this.recent.get(key) ?? found ?? (this.remembered - mark > this.recentIds ? this.stored(actor, activityId, at) : undefined);
    return { replay: replayOf(found, digest, now, this.window), again: async (at) => replayOf(await latest(at), digest, at, this.window) };
  }

  remember(actor: string, activityId: string, digest: string, entry: string, at: Date): void {
    const key = keyOf(actor, activityId);
    this.recent.delete(key);
    this.recent.set(key, { entry, at: at.getTime(), digest });
    this.remembered++;
    if (this.recent.size > this.recentIds) this.recent.delete(this.recent.keys().next().value!);
  }

  /** The latest application of the id within the window at `now`, in the store. */
  private async stored(actor: string, activityId: string, now: Date): Promise<Applied | undefined> {
    const since = new Date(now.getTime() - this.window.ms).toISOString();
    const rows = await this.store.activityLog.select(
      this.queries.bind('ingest/processed-activity', { activityId: str(activityId), actor: iri(actor), since: dateTime(since) }),
    );
    let latest: Applied | undefined;
    for (const row of rows) {
      const applied: Applied = { entry: row.get('entry')!.value, at: Date.parse(row.get('date')!.value) };
      const digest = row.get('digest')?.value;
      if (latest === undefined || applied.at > latest.at) latest = digest === undefined ? applied : { ...applied, digest };
    }
    return latest;
  }
}
