import { expect } from 'chai';
import {
  activityIdOps,
  DEFAULT_WINDOW,
  ProcessedActivities,
  type ProcessedActivityIds,
  type Replay,
} from '../../../../src/core/activities/idempotency.js';
import { StoredActivityIds } from '../../../../src/core/activities/stored-activity-ids.js';
import { logEntryOps } from '../../../../src/core/catalog/activity-log.js';
import { entry, task } from '../../../../src/core/catalog/log-entry.js';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import { GRAPHS, svc } from '../../../../src/core/rdf/namespaces.js';
import { NQuadsBuilder } from '../../../../src/core/rdf/nquads.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import type { QuadStore } from '../../../../src/core/ports/quad-store.js';

const queries = new QueryBank();
const A = 'did:web:a.example';
const B = 'did:web:b.example';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const DAY = 24 * 3600 * 1000;
const at = (ms: number) => new Date(T0.getTime() + ms);

/** An activity-log entry with an activity id, as the ingest commits it; without a digest as entries written before digests were kept. */
async function applied(store: QuadStore, actor: string, activityId: string, digest: string | undefined, when: Date, activity: string) {
  const ops = logEntryOps(activity, actor, entry(activity, 'test-node', when, [task('app', when, when, { result: 1 })]), undefined, true);
  if (digest !== undefined) ops.push(...activityIdOps(activity, activityId, digest));
  else
    ops.push({ op: 'insert', nquads: new NQuadsBuilder(GRAPHS.activityLog).literal(activity, svc('activityId'), activityId).toString() });
  await (
    await store.commit({ ops })
  ).durable;
}

/** A store that counts the queries asked of its activity log. */
function counting(store: QuadStore): { store: QuadStore; asked: () => number } {
  let n = 0;
  const log = store.activityLog;
  const activityLog = { ...log, select: (...args: Parameters<typeof log.select>) => (n++, log.select(...args)) };
  return {
    store: new Proxy(store, { get: (target, key) => (key === 'activityLog' ? activityLog : Reflect.get(target, key)) }),
    asked: () => n,
  };
}

const KINDS: [string, (store: QuadStore) => ProcessedActivityIds][] = [
  ['in memory (a single node)', (store) => new ProcessedActivities(store, queries)],
  ['in the store (a replica)', (store) => new StoredActivityIds(store, queries)],
];

/** One row a question: who asks for which id with which digest when, and the answer (an entry and whether the payload is the same). */
const ROWS: { name: string; actor: string; id: string; digest: string; now: Date; answer: Replay | undefined }[] = [
  { name: 'a retry', actor: A, id: 'urn:x:1', digest: 'd1', now: at(3600_000), answer: { entry: 'urn:e:1', samePayload: true } },
  { name: 'another payload', actor: A, id: 'urn:x:1', digest: 'd2', now: at(3600_000), answer: { entry: 'urn:e:1', samePayload: false } },
  { name: "another actor's id", actor: B, id: 'urn:x:1', digest: 'd1', now: at(3600_000), answer: undefined },
  { name: 'an id never applied', actor: A, id: 'urn:x:9', digest: 'd1', now: at(3600_000), answer: undefined },
  {
    name: 'an entry without a digest',
    actor: A,
    id: 'urn:x:old',
    digest: 'any',
    now: at(3600_000),
    answer: { entry: 'urn:e:old', samePayload: true },
  },
  { name: 'past the window', actor: A, id: 'urn:x:1', digest: 'd1', now: at(DEFAULT_WINDOW.ms + 1), answer: undefined },
  {
    name: 'applied again after the window',
    actor: B,
    id: 'urn:x:2',
    digest: 'd3',
    now: at(8 * DAY + 1),
    answer: { entry: 'urn:e:2b', samePayload: true },
  },
  {
    name: 'an odd id, as a literal',
    actor: A,
    id: 'urn:x:"quoted" \\ $actor\n',
    digest: 'd4',
    now: at(1),
    answer: { entry: 'urn:e:3', samePayload: true },
  },
];

describe('processed activity ids: the in-memory window and the store lookup answer alike', () => {
  for (const [kind, make] of KINDS) {
    describe(kind, () => {
      const store = new OxigraphStore();
      before(async () => {
        await applied(store, A, 'urn:x:1', 'd1', T0, 'urn:e:1');
        await applied(store, A, 'urn:x:old', undefined, T0, 'urn:e:old');
        await applied(store, B, 'urn:x:2', 'd3', T0, 'urn:e:2a');
        await applied(store, B, 'urn:x:2', 'd3', at(8 * DAY), 'urn:e:2b');
        await applied(store, A, 'urn:x:"quoted" \\ $actor\n', 'd4', T0, 'urn:e:3');
      });
      for (const row of ROWS) {
        it(`${row.name}: ${row.answer ? `${row.answer.entry}, ${row.answer.samePayload ? 'same' : 'another'} payload` : 'none'}`, async () => {
          // Started at the row's time: the in-memory window is what the log holds then.
          const ids = make(store);
          await ids.start(row.now);
          const seen = await ids.lookup(row.actor, row.id, row.digest, row.now);
          expect(seen.replay).to.deep.equal(row.answer);
          expect(await seen.again(row.now)).to.deep.equal(row.answer);
        });
      }
    });
  }
});

describe('processed activity ids in the store: what is asked of it', () => {
  it('asks nothing at start, answers a remembered id and the under-lock check from memory, and asks the store when too many came between', async () => {
    const { store, asked } = counting(new OxigraphStore());
    const ids = new StoredActivityIds(store, queries, DEFAULT_WINDOW, 2);
    await ids.start();
    expect(asked()).to.equal(0);

    // Two copies sent together: both miss before the lock; the first is applied, the second finds it under the lock.
    const [one, two] = [await ids.lookup(A, 'urn:x:r', 'd', T0), await ids.lookup(A, 'urn:x:r', 'd', T0)];
    expect([one.replay, two.replay, asked()]).to.deep.equal([undefined, undefined, 2]);
    expect(await one.again(T0)).to.equal(undefined);
    await applied(store, A, 'urn:x:r', 'd', T0, 'urn:e:r');
    ids.remember(A, 'urn:x:r', 'd', 'urn:e:r', T0);
    expect(await two.again(T0)).to.deep.equal({ entry: 'urn:e:r', samePayload: true });
    expect(asked(), 'the under-lock check from memory').to.equal(2);
    expect((await ids.lookup(A, 'urn:x:r', 'd', T0)).replay).to.deep.equal({ entry: 'urn:e:r', samePayload: true });
    expect(asked(), 'a retry right after, from memory').to.equal(2);

    // A copy that waited while more ids were applied than are kept: the one it needs is gone from memory.
    const late = await ids.lookup(A, 'urn:x:s', 'd', T0);
    await applied(store, A, 'urn:x:s', 'd', T0, 'urn:e:s');
    ids.remember(A, 'urn:x:s', 'd', 'urn:e:s', T0);
    for (const n of [1, 2]) ids.remember(B, `urn:x:other-${n}`, 'd', `urn:e:other-${n}`, T0);
    const before = asked();
    expect(await late.again(T0)).to.deep.equal({ entry: 'urn:e:s', samePayload: true });
    expect(asked(), 'the store asked under the lock').to.equal(before + 1);
  });
});
