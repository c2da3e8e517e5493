import type pg from 'pg';
import { openPostgres } from '../../src/adapters/postgres/postgres-state.js';
import { PostgresChanges } from '../../src/adapters/postgres/postgres-changes.js';
import { changeWalkCases } from '../contract/change-source.contract.js';
import { Postgres, postgresMissing } from '../helpers/postgres.js';

/**
 * The change walk's cases (test/unit/core/changes/change-walk.test.ts runs them in memory) over the change
 * feed's index in PostgreSQL, each case on a database of its own: the same items, pages and holds.
 */
describe('change walk (visibility at each point of the journal), in PostgreSQL', function () {
  this.timeout(60_000);
  let postgres: Postgres;
  const pools: pg.Pool[] = [];

  before(async function () {
    if (postgresMissing()) this.skip(); // reason: no PostgreSQL here; .ci/run installs it
    postgres = await Postgres.start();
  });
  after(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await postgres?.stop();
  });

  changeWalkCases(async () => {
    const pool = await openPostgres(await postgres.database(`walk_${pools.length + 1}`));
    pools.push(pool);
    return new PostgresChanges(pool, (reason) => {
      throw new Error(reason);
    });
  });
});
