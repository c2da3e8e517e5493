import type { ActivityLogEntry } from '../catalog/log-entry.js';
import { BadRequest } from '../errors.js';
import type { QueryBank } from '../queries/query-bank.js';
import { dateTime, iri } from '../queries/query-bank.js';
import { GRAPHS, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import type { ChangeOp, QuadStore } from '../ports/quad-store.js';
import { stringValue } from './envelope.js';
import { isObject } from '../util/json.js';

/**
 * How long an applied activity's id is remembered, and how many ids of one actor at most (its oldest
 * go first). Per actor, so that one organisation's burst of activities never pushes another's ids out
 * of the window: what it forgets is its own.
 */
export interface IdempotencyWindow {
  ms: number;
  maxIdsPerActor: number;
}

export const DEFAULT_WINDOW: IdempotencyWindow = { ms: 7 * 24 * 3600 * 1000, maxIdsPerActor: 100_000 };

export interface Applied {
  entry: string;
  at: number;
  /** The payload's digest; absent for ids recorded before digests were kept (then any payload replays). */
  digest?: string;
}

/** What an earlier application of an activity id left: its log entry, and whether this payload is the same. */
export interface Replay {
  entry: string;
  samePayload: boolean;
}

export { payloadDigest } from './payload-digest.js';

/**
 * The longest activity id taken. The id is a key every retry is looked up by, in memory or in the
 * store: unbounded (the body may be 1 MiB), one id of 900,000 characters cost Virtuoso 9 s a lookup.
 * 2,048 is far above what an id (a URI, spec 2.1) needs.
 */
export const MAX_ACTIVITY_ID_CHARS = 2048;

/** The ActivityStreams `id` an activity carries, if any (`id` or `@id`, a string); a longer one than the limit is refused. */
export function activityIdOf(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const id = stringValue(body.id) ?? stringValue(body['@id']);
  if (id !== undefined && id.length > MAX_ACTIVITY_ID_CHARS)
    throw new BadRequest(`The activity id is ${id.length} characters long, more than the limit of ${MAX_ACTIVITY_ID_CHARS}`);
  return id === undefined || id.length === 0 ? undefined : id;
}

/**
 * The first ask, before the ingest lock, and how to ask again under it: two copies of one activity sent
 * together both miss before the lock, and the second must find the first's id once it holds the lock.
 */
export interface ActivityIdLookup {
  replay: Replay | undefined;
  again(now: Date): Promise<Replay | undefined>;
}

/**
 * The activity ids an actor had applied, within the window (spec 2.1): in memory on a single node
 * (ProcessedActivities), in PostgreSQL on a replica set's writer (adapters/postgres/postgres-activity-ids.ts), chosen by the
 * node's OwnState. Ids become durable with the activity's commit (activityIdOps); `remember` is told
 * of each one at its commit, under the ingest lock.
 */
export interface ProcessedActivityIds {
  /** Before the first write. */
  start(now: Date): Promise<void>;
  lookup(actor: string, activityId: string, digest: string, now: Date): Promise<ActivityIdLookup>;
  remember(actor: string, activityId: string, digest: string, entry: string, at: Date): void;
  /**
   * Where ids are kept apart from the store (a replica set's, in PostgreSQL): records the id under the
   * ingest lock before the activity's commit is sent, so that a process dying once the store applied
   * it leaves the id behind. A claim whose commit then failed names an entry the store lacks: a retry
   * finds no entry to answer with and is applied anew.
   */
  claim?(actor: string, activityId: string, digest: string, entry: string, at: Date): Promise<void>;
}

/** Whether `hit`, applied at `hit.at`, still answers a retry at `now`, and with which entry. */
export function replayOf(hit: Applied | undefined, digest: string, now: Date, window: IdempotencyWindow): Replay | undefined {
  if (!hit || hit.at < now.getTime() - window.ms) return undefined;
  return { entry: hit.entry, samePayload: hit.digest === undefined || hit.digest === digest };
}

/** The stored log entry of `entry`, as first answered. */
export async function originalEntry(
  store: QuadStore,
  queries: QueryBank,
  entry: string,
  actor: string,
): Promise<ActivityLogEntry | undefined> {
  const [row] = await store.activityLog.select(queries.bind('views/activity-log-entry', { activity: iri(entry), org: iri(actor) }));
  return row ? (JSON.parse(row.get('entry')!.value) as ActivityLogEntry) : undefined;
}

/** The quads that make the id and the payload's digest durable, written with the log entry. */
export function activityIdOps(entry: string, activityId: string, digest: string): ChangeOp[] {
  return [
    {
      op: 'insert',
      nquads: new NQuadsBuilder(GRAPHS.activityLog)
        .literal(entry, svc('activityId'), activityId)
        .literal(entry, svc('activityDigest'), digest)
        .toString(),
    },
  ];
}

/**
 * Spec 2.1 gives activities an optional `id`. A client that retries after a timeout sends the same
 * activity with the same id; it is applied once per actor and the retry is answered with the
 * original activity-log entry (no second event, no second signal). The same id with a different
 * payload is not a retry: it is refused with 409 Conflict rather than answered with an entry that
 * does not describe it.
 *
 * Durable: the id is written on the activity-log entry in the same commit as the activity's data
 * (svc:activityId). This one, a single node's, holds the window in memory, reloaded from the log at
 * start (replicas look ids up in the store: stored-activity-ids.ts). Bounded: ids are remembered for
 * `window.ms` (7 days) and at most `window.maxIdsPerActor` per actor; an id older than that is
 * applied anew. Only applied (completed) activities are remembered: a refused or failed one changed
 * nothing, so sending it again is a fresh attempt.
 */
export class ProcessedActivities implements ProcessedActivityIds {
  /** actor -> id -> log entry; a Map keeps insertion order, which is the eviction order. */
  private readonly applied = new Map<string, Map<string, Applied>>();

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly window: IdempotencyWindow = DEFAULT_WINDOW,
  ) {}

  async start(now: Date): Promise<void> {
    const since = new Date(now.getTime() - this.window.ms).toISOString();
    const rows = await this.store.activityLog.select(this.queries.bind('ingest/processed-activities', { since: dateTime(since) }));
    const found = rows
      .map((row) => ({
        actor: row.get('actor')!.value,
        activityId: row.get('activityId')!.value,
        entry: row.get('entry')!.value,
        at: Date.parse(row.get('date')!.value),
        digest: row.get('digest')?.value,
      }))
      .sort((a, b) => a.at - b.at);
    for (const f of found) {
      // An id applied again after it was forgotten has two entries: the later one counts, in its place.
      const ids = this.idsOf(f.actor);
      ids.delete(f.activityId);
      ids.set(f.activityId, f.digest === undefined ? { entry: f.entry, at: f.at } : { entry: f.entry, at: f.at, digest: f.digest });
    }
    for (const ids of this.applied.values()) this.prune(ids, now.getTime());
  }

  /** Every id is in memory: asked again under the lock, the map has what was remembered since. */
  async lookup(actor: string, activityId: string, digest: string, now: Date): Promise<ActivityIdLookup> {
    const find = (at: Date) => replayOf(this.applied.get(actor)?.get(activityId), digest, at, this.window);
    return { replay: find(now), again: async (at) => find(at) };
  }

  /** At the activity's commit, under the ingest lock. */
  remember(actor: string, activityId: string, digest: string, entry: string, at: Date): void {
    const ids = this.idsOf(actor);
    ids.delete(activityId);
    ids.set(activityId, { entry, at: at.getTime(), digest });
    this.prune(ids, at.getTime());
  }

  private idsOf(actor: string): Map<string, Applied> {
    let ids = this.applied.get(actor);
    if (!ids) this.applied.set(actor, (ids = new Map()));
    return ids;
  }

  /** Drops one actor's ids past its bound or out of the window, oldest first. */
  private prune(ids: Map<string, Applied>, now: number): void {
    const oldest = now - this.window.ms;
    for (const [id, applied] of ids) {
      if (ids.size > this.window.maxIdsPerActor || applied.at < oldest) ids.delete(id);
      else break;
    }
  }
}
