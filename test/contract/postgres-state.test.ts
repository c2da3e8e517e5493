import type pg from 'pg';
import { OxigraphStore } from '../../src/adapters/oxigraph/oxigraph-store.js';
import { StoredActivityIds } from '../../src/core/activities/stored-activity-ids.js';
import { createLogger } from '../../src/core/logger.js';
import { QueryBank } from '../../src/core/queries/query-bank.js';
import { leaseConfirmedReplays } from '../../src/adapters/postgres/lease-acknowledgement.js';
import { PostgresActivityIds } from '../../src/adapters/postgres/postgres-activity-ids.js';
import { PostgresCatalog } from '../../src/adapters/postgres/postgres-catalog.js';
import { PostgresLedger } from '../../src/adapters/postgres/postgres-ledger.js';
import { openPostgres } from '../../src/adapters/postgres/postgres-state.js';
import { PostgresBlobs } from '../../src/adapters/postgres/postgres-blobs.js';
import { sharedJwtSecret } from '../../src/adapters/postgres/shared-secret.js';
import { postgresCounters } from '../../src/adapters/postgres/login-counters.js';
import { Postgres, postgresMissing } from '../helpers/postgres.js';
import { activityIdsContract, CONTRACT_WINDOW } from './activity-ids.contract.js';
import { blobStoreContract } from './blob-store.contract.js';
import { consignmentCatalogContract } from './consignment-catalog.contract.js';
import { jwtSecretContract } from './jwt-secret.contract.js';
import { loginCountersContract } from './login-counters.contract.js';
import { receiverLedgerContract } from './receiver-ledger.contract.js';

const queries = new QueryBank();

/**
 * The ports of a replica set's own state (adapters/postgres/replica-set.ts: PostgreSQL) against the same
 * contracts as a single node's (local-state.test.ts), each case on a database of its own; `again` is
 * a second pool, as another replica opens it.
 */
describe("ports' contracts: a replica set's state (PostgreSQL)", function () {
  this.timeout(60_000);
  let postgres: Postgres;
  const pools: pg.Pool[] = [];
  const ledgers: PostgresLedger[] = [];
  let databases = 0;

  before(async function () {
    if (postgresMissing()) this.skip(); // reason: no PostgreSQL here; .ci/run installs it
    postgres = await Postgres.start();
  });
  after(async () => {
    await Promise.all(ledgers.map((ledger) => ledger.close()));
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
  consignmentCatalogContract(async () => {
    const diverged = (reason: string) => {
      throw new Error(reason);
    };
    const catalog = new PostgresCatalog((await database()).pool, new OxigraphStore(), queries, () => 1_000, diverged);
    await catalog.complete();
    return catalog;
  });
  receiverLedgerContract(async (store) => {
    const ledger = new PostgresLedger((await database()).pool, store, queries, createLogger('silent'));
    ledgers.push(ledger);
    return ledger;
  });
  // The writer's ids: rows in PostgreSQL, each replay confirmed on the lease, as replica-set.ts composes
  // them; each process opened (the next writer) is a new instance on the case's database.
  activityIdsContract(async () => {
    const { pool } = await database();
    return async () => leaseConfirmedReplays(new PostgresActivityIds(pool, createLogger('silent'), CONTRACT_WINDOW), () => true);
  });
});

/**
 * A follower's activity ids (serving/follower-state.ts): looked up in the store (the SPARQL server a set
 * shares); against the contract a single node's ids in memory keep (local-state.test.ts).
 */
describe("ports' contracts: a follower's activity ids (the store)", () => {
  activityIdsContract(async () => async (store) => new StoredActivityIds(store, queries, CONTRACT_WINDOW));
});
