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

/** Commits an applied activity's log entry with its id and digest, as the ingest does; answers the entry. */
async function applied(store: QuadStore, actor: string, activityId: string, digest: string, at: number): Promise<string> {
  const entry = `urn:uuid:${randomUUID()}`;
  const logEntry = { id: entry, status: 'completed' as const, generator: 'contract', dateCreated: new Date(at).toISOString(), tasks: [] };
  const ops = [...logEntryOps(entry, actor, logEntry, undefined, true), ...activityIdOps(entry, activityId, digest)];
  await (
    await store.commit({ ops })
  ).durable;
  return entry;
}

/**
 * What every ProcessedActivityIds answers (spec 2.1 retries), whichever keeps the window: a single
 * node's memory, loaded at start (ProcessedActivities), or a replica's lookups in the store
 * (StoredActivityIds). `make` gives one over `store` with CONTRACT_WINDOW. The per-actor count bound
 * is the single node's only (docs/decisions.md), so it is not part of the contract.
 */
export function activityIdsContract(make: (store: QuadStore) => Promise<ProcessedActivityIds>): void {
  describe('ProcessedActivityIds contract', () => {
    it('answers an id applied before it started with its entry, and tells the same payload from another', async () => {
      const store = new OxigraphStore();
      const entry = await applied(store, FORWARDER, 'urn:uuid:a-1', 'digest-1', T0);
      const ids = await make(store);
      const now = new Date(T0 + DAY);
      await ids.start(now);
      expect((await ids.lookup(FORWARDER, 'urn:uuid:a-1', 'digest-1', now)).replay).to.deep.equal({ entry, samePayload: true });
      expect((await ids.lookup(FORWARDER, 'urn:uuid:a-1', 'digest-2', now)).replay).to.deep.equal({ entry, samePayload: false });
      // Ids are the actor's own: another actor's same id is a new activity.
      expect((await ids.lookup(CARRIER, 'urn:uuid:a-1', 'digest-1', now)).replay).to.equal(undefined);
      expect((await ids.lookup(FORWARDER, 'urn:uuid:never', 'digest-1', now)).replay).to.equal(undefined);
    });

    it('forgets an id applied before the window', async () => {
      const store = new OxigraphStore();
      await applied(store, FORWARDER, 'urn:uuid:old', 'digest-1', T0);
      const ids = await make(store);
      const now = new Date(T0 + 8 * DAY);
      await ids.start(now);
      expect((await ids.lookup(FORWARDER, 'urn:uuid:old', 'digest-1', now)).replay).to.equal(undefined);
    });

    it('answers an id remembered at its commit, and finds under the lock one remembered after the first ask', async () => {
      const store = new OxigraphStore();
      const ids = await make(store);
      const now = new Date(T0);
      await ids.start(now);
      const first = await ids.lookup(FORWARDER, 'urn:uuid:b-1', 'digest-1', now);
      expect(first.replay).to.equal(undefined);
      // Another copy of the activity, sent at the same time, committed between the ask and the lock.
      const entry = await applied(store, FORWARDER, 'urn:uuid:b-1', 'digest-1', T0);
      ids.remember(FORWARDER, 'urn:uuid:b-1', 'digest-1', entry, now);
      expect(await first.again(now)).to.deep.equal({ entry, samePayload: true });
      expect((await ids.lookup(FORWARDER, 'urn:uuid:b-1', 'digest-9', now)).replay).to.deep.equal({ entry, samePayload: false });
    });

    it('answers the later entry of an id applied again', async () => {
      const store = new OxigraphStore();
      await applied(store, FORWARDER, 'urn:uuid:c-1', 'digest-1', T0);
      const later = await applied(store, FORWARDER, 'urn:uuid:c-1', 'digest-2', T0 + DAY);
      const ids = await make(store);
      const now = new Date(T0 + 2 * DAY);
      await ids.start(now);
      expect((await ids.lookup(FORWARDER, 'urn:uuid:c-1', 'digest-2', now)).replay).to.deep.equal({ entry: later, samePayload: true });
    });
  });
}
