import type pg from 'pg';
import { openPostgres } from '../../src/adapters/postgres/postgres-state.js';
import { PostgresBlobs } from '../../src/adapters/postgres/postgres-blobs.js';
import { sharedJwtSecret } from '../../src/adapters/postgres/shared-secret.js';
import { postgresCounters } from '../../src/adapters/postgres/login-counters.js';
import { Postgres, postgresMissing } from '../helpers/postgres.js';
import { blobStoreContract } from './blob-store.contract.js';
import { jwtSecretContract } from './jwt-secret.contract.js';
import { loginCountersContract } from './login-counters.contract.js';

/**
 * The ports of a replica set's own state (adapters/postgres/replica-set.ts: PostgreSQL) against the same
 * contracts as a single node's (local-state.test.ts), each case on a database of its own; `again` is
 * a second pool, as another replica opens it.
 */
describe("ports' contracts: a replica set's state (PostgreSQL)", function () {
  this.timeout(60_000);
  let postgres: Postgres;
  const pools: pg.Pool[] = [];
  let databases = 0;

  before(async function () {
    if (postgresMissing()) this.skip(); // reason: no PostgreSQL here; .ci/run installs it
    postgres = await Postgres.start();
  });
  after(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await postgres?.stop();
  });

  /** A pool on a new database with the schema in place, and a way to open another pool on it. */
  const database = async (): Promise<{ pool: pg.Pool; another: () => Promise<pg.Pool> }> => {
    const url = await postgres.database(`contract_${(databases += 1)}`);
    const open = async () => {
      const pool = await openPostgres(url);
      pools.push(pool);
      return pool;
    };
    return { pool: await open(), another: open };
  };

  blobStoreContract(async () => {
    const { pool, another } = await database();
    return { store: new PostgresBlobs(pool), again: async () => new PostgresBlobs(await another()) };
  });
  jwtSecretContract(async () => {
    const { pool, another } = await database();
    return { secret: () => sharedJwtSecret(pool), again: async () => sharedJwtSecret(await another()) };
  });
  loginCountersContract(async () => postgresCounters((await database()).pool));
});
