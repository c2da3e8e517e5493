import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { OxigraphStore } from '../../src/adapters/oxigraph/oxigraph-store.js';
import { activityIdOps, type IdempotencyWindow, type ProcessedActivityIds } from '../../src/core/activities/idempotency.js';
import { logEntryOps } from '../../src/core/catalog/activity-log.js';
import type { QuadStore } from '../../src/core/ports/quad-store.js';

const FORWARDER = 'did:web:forwarder.example';
const CARRIER = 'did:web:carrier.example';
const T0 = Date.parse('2026-11-23T10:00:00Z');
const DAY = 24 * 3_600_000;
export const CONTRACT_WINDOW: IdempotencyWindow = { ms: 7 * DAY, maxIdsPerActor: 1_000 };

/**
 * One place a case's ids are kept (a data dir, a database): `open` gives the ProcessedActivityIds one
 * process opens over `store` with CONTRACT_WINDOW; opened again, it is another process (a restart, the
 * next writer) on the same place.
 */
export type ActivityIdsPlace = (store: QuadStore) => Promise<ProcessedActivityIds>;

/**
 * Applies an activity with an id as the ingest does (ingest.ts): the id claimed before the commit where
 * ids are kept apart from the store, the log entry with its id and digest committed, then remembered.
 * Answers the entry.
 */
async function applied(
  store: QuadStore,
  ids: ProcessedActivityIds,
  actor: string,
  activityId: string,
  digest: string,
  at: number,
): Promise<string> {
  const entry = `urn:uuid:${randomUUID()}`;
  await ids.claim?.(actor, activityId, digest, entry, new Date(at));
  const logEntry = { id: entry, status: 'completed' as const, generator: 'contract', dateCreated: new Date(at).toISOString(), tasks: [] };
  const ops = [...logEntryOps(entry, actor, logEntry, undefined, true), ...activityIdOps(entry, activityId, digest)];
  await (
    await store.commit({ ops })
  ).durable;
  ids.remember(actor, activityId, digest, entry, new Date(at));
  return entry;
}

/** A process that applied activities and is gone: what it kept in memory is lost with it. */
async function earlier(open: ActivityIdsPlace, store: QuadStore, at: number): Promise<ProcessedActivityIds> {
  const ids = await open(store);
  await ids.start(new Date(at));
  return ids;
}

/**
 * What every ProcessedActivityIds answers (spec 2.1 retries), whichever keeps the window: a single
 * node's memory, loaded at start (ProcessedActivities), a follower's lookups in the store
 * (StoredActivityIds), or a replica set's rows in PostgreSQL (PostgresActivityIds). `place` gives a
 * case its own place. The per-actor count bound is the single node's only (docs/decisions.md), so it is
 * not part of the contract.
 */
export function activityIdsContract(place: () => Promise<ActivityIdsPlace>): void {
  describe('ProcessedActivityIds contract', () => {
    it('answers an id applied before it started with its entry, and tells the same payload from another', async () => {
      const [open, store] = [await place(), new OxigraphStore()];
      const entry = await applied(store, await earlier(open, store, T0), FORWARDER, 'urn:uuid:a-1', 'digest-1', T0);
      const ids = await open(store);
      const now = new Date(T0 + DAY);
      await ids.start(now);
      expect((await ids.lookup(FORWARDER, 'urn:uuid:a-1', 'digest-1', now)).replay).to.deep.equal({ entry, samePayload: true });
      expect((await ids.lookup(FORWARDER, 'urn:uuid:a-1', 'digest-2', now)).replay).to.deep.equal({ entry, samePayload: false });
      // Ids are the actor's own: another actor's same id is a new activity.
      expect((await ids.lookup(CARRIER, 'urn:uuid:a-1', 'digest-1', now)).replay).to.equal(undefined);
      expect((await ids.lookup(FORWARDER, 'urn:uuid:never', 'digest-1', now)).replay).to.equal(undefined);
    });

    it('forgets an id applied before the window', async () => {
      const [open, store] = [await place(), new OxigraphStore()];
      await applied(store, await earlier(open, store, T0), FORWARDER, 'urn:uuid:old', 'digest-1', T0);
      const ids = await open(store);
      const now = new Date(T0 + 8 * DAY);
      await ids.start(now);
      expect((await ids.lookup(FORWARDER, 'urn:uuid:old', 'digest-1', now)).replay).to.equal(undefined);
    });

    it('answers an id remembered at its commit, and finds under the lock one remembered after the first ask', async () => {
      const [open, store] = [await place(), new OxigraphStore()];
      const ids = await open(store);
      const now = new Date(T0);
      await ids.start(now);
      const first = await ids.lookup(FORWARDER, 'urn:uuid:b-1', 'digest-1', now);
      expect(first.replay).to.equal(undefined);
      // Another copy of the activity, sent at the same time, applied between the ask and the lock.
      const entry = await applied(store, ids, FORWARDER, 'urn:uuid:b-1', 'digest-1', T0);
      expect(await first.again(now)).to.deep.equal({ entry, samePayload: true });
      expect((await ids.lookup(FORWARDER, 'urn:uuid:b-1', 'digest-9', now)).replay).to.deep.equal({ entry, samePayload: false });
    });

    it('answers the later entry of an id applied again', async () => {
      const [open, store] = [await place(), new OxigraphStore()];
      const before = await earlier(open, store, T0);
      await applied(store, before, FORWARDER, 'urn:uuid:c-1', 'digest-1', T0);
      const later = await applied(store, before, FORWARDER, 'urn:uuid:c-1', 'digest-2', T0 + DAY);
      const ids = await open(store);
      const now = new Date(T0 + 2 * DAY);
      await ids.start(now);
      expect((await ids.lookup(FORWARDER, 'urn:uuid:c-1', 'digest-2', now)).replay).to.deep.equal({ entry: later, samePayload: true });
    });
  });
}
