import { createHash } from 'node:crypto';
import type { ActivityLogEntry } from '../catalog/log-entry.js';
import type { QueryBank } from '../queries/query-bank.js';
import { dateTime, iri } from '../queries/query-bank.js';
import { GRAPHS, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import type { ChangeOp, QuadStore } from '../store/quad-store.js';
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

interface Applied {
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

/**
 * A digest of the activity as normalised (nulls dropped, dates in their stored form): keys in
 * code-point order at every level, so key order and JSON spacing do not make two payloads differ.
 * Written here rather than with a canonical-JSON package: ten lines over a body already bounded in
 * depth and size (limits.ts), and no new dependency.
 */
export function payloadDigest(json: unknown): string {
  return createHash('sha256').update(sortedJson(json)).digest('base64url');
}

function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The ActivityStreams `id` an activity carries, if any (`id` or `@id`, a string). */
export function activityIdOf(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const id = stringValue(body.id) ?? stringValue(body['@id']);
  return id === undefined || id.length === 0 ? undefined : id;
}

/**
 * Spec 2.1 gives activities an optional `id`. A client that retries after a timeout sends the same
 * activity with the same id; it is applied once per actor and the retry is answered with the
 * original activity-log entry (no second event, no second signal). The same id with a different
 * payload is not a retry: it is refused with 409 Conflict rather than answered with an entry that
 * does not describe it.
 *
 * Durable: the id is written on the activity-log entry in the same commit as the activity's data
 * (svc:activityId), and reloaded from the log at start. Bounded: ids are remembered for `window.ms`
 * (7 days) and at most `window.maxIdsPerActor` per actor; an id older than that is applied anew. Only applied
 * (completed) activities are remembered: a refused or failed one changed nothing, so sending it again
 * is a fresh attempt.
 */
export class ProcessedActivities {
  /** actor -> id -> log entry; a Map keeps insertion order, which is the eviction order. */
  private readonly applied = new Map<string, Map<string, Applied>>();

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly window: IdempotencyWindow = DEFAULT_WINDOW,
  ) {}

  async load(now: Date): Promise<void> {
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

  /** The log entry an earlier application of this activity id was answered with, if within the window. */
  lookup(actor: string, activityId: string, digest: string, now: Date): Replay | undefined {
    const hit = this.applied.get(actor)?.get(activityId);
    if (!hit) return undefined;
    if (hit.at < now.getTime() - this.window.ms) return undefined;
    return { entry: hit.entry, samePayload: hit.digest === undefined || hit.digest === digest };
  }

  /** The stored log entry of `entry`, as first answered. */
  async entry(entry: string, actor: string): Promise<ActivityLogEntry | undefined> {
    const [row] = await this.store.activityLog.select(
      this.queries.bind('views/activity-log-entry', { activity: iri(entry), org: iri(actor) }),
    );
    return row ? (JSON.parse(row.get('entry')!.value) as ActivityLogEntry) : undefined;
  }

  /** The quads that make the id and the payload's digest durable, written with the log entry. */
  recordOps(entry: string, activityId: string, digest: string): ChangeOp[] {
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

  /** After the commit is durable. */
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
