import { expect } from 'chai';
import type pg from 'pg';
import { PostgresActivityIds } from '../../src/adapters/postgres/postgres-activity-ids.js';
import { openPostgres, writerPool } from '../../src/adapters/postgres/postgres-state.js';
import { DEFAULT_WINDOW, MAX_ACTIVITY_ID_CHARS } from '../../src/core/activities/idempotency.js';
import { ServiceUnavailable } from '../../src/core/errors.js';
import { Postgres, postgresMissing } from '../helpers/postgres.js';
import { recordingLogger } from '../helpers/recording-logger.js';

const A = 'did:web:a.example';
const B = 'did:web:b.example';
const T0 = new Date('2026-12-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/**
 * A replica set's activity ids in PostgreSQL (src/adapters/postgres/postgres-activity-ids.ts): what a
 * writer claimed before its commit answers a retry on the next writer, which holds nothing in memory;
 * the window, the actor and the payload's digest as the single node's window has them; a row claimed
 * again replaces the first (a commit that failed); a deposed writer's claim refused.
 */
describe('replicas: activity ids in PostgreSQL', function () {
  this.timeout(60_000);
  let postgres: Postgres;
  let pool: pg.Pool;
  let url: string;
  const logger = recordingLogger();

  before(async function () {
    if (postgresMissing()) this.skip(); // reason: no PostgreSQL here; .ci/run installs it
    postgres = await Postgres.start();
    url = await postgres.database('activity_ids');
    pool = await openPostgres(url);
  });
  after(async () => {
    await pool?.end();
    await postgres?.stop();
  });

  it('answers a retry on the next writer from the row the first claimed, by actor, digest and window', async () => {
    const first = new PostgresActivityIds(pool, logger);
    await first.start(T0);
    const seen = await first.lookup(A, 'urn:x:1', 'd1', T0);
    expect(seen.replay).to.equal(undefined);
    await first.claim(A, 'urn:x:1', 'd1', 'urn:e:1', T0);
    expect(await seen.again(T0), 'the under-lock check finds the claim').to.deep.equal({ entry: 'urn:e:1', samePayload: true });

    const next = new PostgresActivityIds(pool, logger);
    await next.start(at(1000));
    expect((await next.lookup(A, 'urn:x:1', 'd1', at(1000))).replay).to.deep.equal({ entry: 'urn:e:1', samePayload: true });
    expect((await next.lookup(A, 'urn:x:1', 'd2', at(1000))).replay).to.deep.equal({ entry: 'urn:e:1', samePayload: false });
    expect((await next.lookup(B, 'urn:x:1', 'd1', at(1000))).replay, "another actor's id").to.equal(undefined);
    expect((await next.lookup(A, 'urn:x:1', 'd1', at(DEFAULT_WINDOW.ms + 1))).replay, 'past the window').to.equal(undefined);
  });

  it('keeps the longest id taken, and a claim made again replaces the first', async () => {
    const ids = new PostgresActivityIds(pool, logger);
    const long = `urn:x:${'é'.repeat(MAX_ACTIVITY_ID_CHARS - 6)}`;
    await ids.claim(B, long, 'd1', 'urn:e:failed', T0);
    // The first claim's commit failed: the retry found no entry in the store and was applied anew.
    await ids.claim(B, long, 'd1', 'urn:e:applied', at(5000));
    const fresh = new PostgresActivityIds(pool, logger);
    expect((await fresh.lookup(B, long, 'd1', at(6000))).replay).to.deep.equal({ entry: 'urn:e:applied', samePayload: true });
  });

  it('asks PostgreSQL under the lock when more ids were claimed in between than it keeps', async () => {
    const ids = new PostgresActivityIds(pool, logger, DEFAULT_WINDOW, 2);
    const waiting = await ids.lookup(A, 'urn:x:late', 'd', T0);
    await ids.claim(A, 'urn:x:late', 'd', 'urn:e:late', T0);
    for (const n of [1, 2, 3]) await ids.claim(B, `urn:x:other-${n}`, 'd', `urn:e:other-${n}`, T0);
    expect(await waiting.again(T0)).to.deep.equal({ entry: 'urn:e:late', samePayload: true });
  });

  it('refuses a deposed writer’s claim with 503, before anything is stored', async () => {
    // No lease row at epoch 7: the fence refuses this session's writes.
    const deposed = writerPool(url, 7, 2000);
    try {
      const ids = new PostgresActivityIds(deposed, logger);
      const refused = await ids.claim(A, 'urn:x:deposed', 'd', 'urn:e:deposed', T0).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).to.be.instanceOf(ServiceUnavailable);
      expect((await new PostgresActivityIds(pool, logger).lookup(A, 'urn:x:deposed', 'd', T0)).replay).to.equal(undefined);
    } finally {
      await deposed.end();
    }
  });
});
