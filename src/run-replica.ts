import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type pg from 'pg';
import type { ReaderPool } from './core/activities/reader-pool.js';
import type { Config } from './config.js';
import type { Logger } from './core/logger.js';
import type { DataspaceNode, NodeOptions } from './node.js';
import type { OwnState } from './core/ports/own-state.js';
import { SeedError } from './core/registry/seed.js';
import { writeRetry } from './adapters/postgres/postgres-outage.js';
import { PostgresReach } from './adapters/postgres/postgres-reach.js';
import { openPostgres, underSchemaLock, type PoolBounds } from './adapters/postgres/postgres-state.js';
import { FollowerRole } from './adapters/postgres/serving/follower-role.js';
import { followerState } from './adapters/postgres/serving/follower-state.js';
import { readServingConfig } from './adapters/postgres/serving/serving-config.js';
import { WriterAddress } from './adapters/postgres/serving/writer-address.js';
import { WriterRole } from './adapters/postgres/serving/writer-role.js';

export interface ReplicaRun {
  config: Config;
  logger: Logger;
  reader: ReaderPool | undefined;
  createNode: (config: Config, logger: Logger, options: NodeOptions) => Promise<DataspaceNode>;
  /** Joins the set and resolves once this replica holds the writer lease; `standby` is told if another holds it. */
  join: (standby: () => void, reach: PostgresReach) => Promise<OwnState>;
  /** Serves `node` on the replica's port (the early server's handler); a stop then closes that node. */
  serve: (node: DataspaceNode) => void;
  /** Told when this replica can no longer write what its followers need: it must stop. */
  failed: (reason: string) => void;
}

/** PostgreSQL could not be reached or set up at start. */
export class ServingPoolError extends Error {}

/**
 * The replica took the writer lease but could not start the writer's node: its lease unconfirmed
 * meanwhile (the store's updates refused, PostgreSQL silent), or PostgreSQL or the store away. It
 * stops rather than serve half-built; its lease expires, and a standby or its own restart takes it.
 */
export class WriterStartError extends Error {}

/** The serving tables (deploy/postgres/serving-schema.sql), under the schema lock every replica takes. */
export async function servingPool(databaseUrl: string, bounds?: PoolBounds): Promise<pg.Pool> {
  const pool = await openPostgres(databaseUrl, bounds);
  await underSchemaLock(databaseUrl, ['serving-schema']);
  return pool;
}

/**
 * A replica of a set where every replica serves (docs/replicas.md): while another holds the writer
 * lease, it serves as a follower (reads here, writes forwarded); once it holds the lease, it builds
 * the writer's node, serves that, and lets the follower go. Resolves with the writer's node.
 */
export async function runReplica(run: ReplicaRun): Promise<DataspaceNode> {
  const { config, logger } = run;
  const databaseUrl = config.replica!.databaseUrl;
  const serving = readServingConfig(process.env, config.host, config.port);
  // Every statement bounded by the lease: a replica cut off from PostgreSQL answers 503, not never.
  const pool = await servingPool(databaseUrl, { statementMs: config.replica!.leaseMs }).catch((error: unknown) => {
    throw new ServingPoolError((error as Error).message);
  });
  const writer = new WriterAddress(pool);
  let onStandby!: () => void;
  const standby = new Promise<'standby'>((ok) => (onStandby = () => ok('standby')));
  // Unreachable once two lease statements' bounds (a third of the lease each) went unanswered.
  const reach = new PostgresReach(Math.round(config.replica!.leaseMs / 3));
  const joined = run.join(onStandby, reach);
  let holding = false;
  joined.then(() => (holding = true)).catch(() => undefined);
  let follower: { node: DataspaceNode; role: FollowerRole } | undefined;
  if ((await Promise.race([joined.then(() => 'lease' as const), standby])) === 'standby') {
    const role = await FollowerRole.begin(pool, writer, { databaseUrl, ...serving, reach }, logger);
    const signals = { holder: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`, leaseMs: config.replica!.leaseMs };
    const node = await run.createNode(config, logger, {
      ownState: followerState(pool, logger, signals),
      reader: run.reader,
      serving: role,
    });
    follower = { node, role };
    // The lease may have come while the follower was built: then it never serves.
    if (!holding) {
      run.serve(node);
      logger.info('serving as a follower: writes go to the replica holding the writer lease');
    }
  }
  const own = await joined;
  const id = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const retry = writeRetry(logger);
  const role = new WriterRole(pool, writer, id, serving.address, run.failed, retry, reach);
  let node: DataspaceNode;
  try {
    node = await run.createNode(config, logger, { ownState: own, reader: run.reader, serving: role });
    run.serve(node);
    await role.published();
  } catch (error) {
    // A wrong seed is the operator's to fix, said as on a single node.
    if (error instanceof SeedError) throw error;
    throw new WriterStartError(
      `stepping down: this replica took the writer lease but could not start as the writer (${(error as Error).message}); ` +
        'it stops, and its supervisor starts it again as a standby',
    );
  }
  logger.info('serving as the writer', { address: serving.address });
  // Requests the follower took before the writer served are answered by it, then it closes.
  if (follower) await follower.role.drained().then(() => follower.node.close());
  return node;
}
