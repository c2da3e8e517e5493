import './adapters/oxigraph/wasm/js-wasm-calls.js';
import { ConfigError, readConfig, type Config } from './config.js';
import { createLogger } from './core/logger.js';
import { SeedError } from './core/registry/seed.js';
import { StoreRecoveryError } from './adapters/oxigraph/recovery/recovery.js';
import { SparqlStoreError } from './adapters/sparql-server/sparql-server-text.js';
import { listenEarly, type EarlyServer } from './adapters/ops/early-server.js';
import { lockDataDir, releaseDataDir } from './adapters/ops/data-dir-lock.js';
import { gracefulShutdown } from './adapters/ops/graceful-shutdown.js';
import { startReaders } from './core/activities/reader-pool.js';
import type { ReplicaConfig } from './adapters/postgres/replica-config.js';
import type { PostgresReach } from './adapters/postgres/postgres-reach.js';
import type { ReplicaRun } from './run-replica.js';
import { SetMismatch } from './adapters/postgres/set-identity.js';
import type { SparqlStoreConfig } from './adapters/sparql-server/sparql-store-config.js';
import type { Logger } from './core/logger.js';
import type { DataspaceNode } from './node-contract.js';

/** PostgreSQL could not be reached or set up at start: the replica stops with the reason. */
class ReplicaSetError extends Error {}

/**
 * Waits on standby (probes answering 503) until this replica holds the writer lease. Losing it later
 * (another replica took it: this one was frozen or cut off) stops the process at once: its writes are
 * fenced already, and a supervisor starts it again as a standby.
 */
async function joinReplicaSet(
  config: ReplicaConfig,
  sparql: SparqlStoreConfig,
  early: EarlyServer,
  logger: Logger,
  standby: () => void,
  reach: PostgresReach,
) {
  const { joinReplicaSet: join } = await import('./adapters/postgres/replica-set.js');
  try {
    const state = await join(config, sparql, logger, {
      reach,
      standby: () => {
        early.waiting('This replica is on standby: another replica of the set is serving; retry shortly');
        standby();
      },
      lost: (reason) => {
        logger.error('lost the writer lease: stopping now, another replica may take over', { reason });
        process.exit(1);
      },
    });
    early.waiting('The node is starting (reading the store); retry shortly');
    return state;
  } catch (error) {
    if (error instanceof SetMismatch) throw new ReplicaSetError(`refusing to start: ${error.message}`);
    throw new ReplicaSetError(`could not join the replica set in PostgreSQL: ${(error as Error).message}`);
  }
}

/** A replica serves as a follower until it holds the writer lease, then as the writer (run-replica.ts). */
async function serveReplica(run: Omit<ReplicaRun, 'failed'>) {
  const { runReplica, ServingPoolError, WriterStartError } = await import('./run-replica.js');
  const failed = (reason: string) => {
    run.logger.error('the other replicas can no longer follow this writer: stopping now', { reason });
    process.exit(1);
  };
  try {
    return await runReplica({ ...run, failed });
  } catch (error) {
    if (error instanceof ServingPoolError) throw new ReplicaSetError(`could not join the replica set in PostgreSQL: ${error.message}`);
    if (error instanceof WriterStartError) throw new ReplicaSetError(error.message);
    throw error;
  }
}

async function main(): Promise<void> {
  const logger = createLogger();
  let node;
  let config: Config;
  let early: EarlyServer;
  /** The node answering on the port: a follower's until its replica takes the writer lease. */
  let served: DataspaceNode | undefined;
  const serve = (built: DataspaceNode) => {
    served = built;
    early.serve(built.app);
  };
  try {
    config = readConfig();
    // One node per data dir: a second one would replay and append the same logs (acknowledged writes lost).
    // A replica keeps nothing on its local disk (docs/replicas.md), so it neither makes nor locks one.
    const { dataDir } = config;
    if (!config.replica) {
      const held = lockDataDir(dataDir);
      process.once('exit', () => releaseDataDir(dataDir, held));
    }
    // Probes answer (readyz 503) while the store recovers; the node's app takes over once built.
    early = await listenEarly(config.port, config.host, config.server, logger);
    // From here a signal stops the process gracefully: a follower serves long before its replica
    // holds the lease (if ever), and must answer what it holds before it goes, as a writer does.
    const shutdown = gracefulShutdown(early.server, () => served, config.shutdownTimeoutMs, logger);
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
    process.on('SIGINT', () => void shutdown('SIGINT'));
    // The node's modules (store, shapes, engines) load once the port is open: probes answer meanwhile,
    // and a replica on standby has them loaded when it takes over.
    const modules = import('./node.js');
    // A standby compiles its readers' shapes while it waits: a takeover then does not wait for them.
    const reader = config.replica && startReaders(config, logger);
    const { createNode } = await modules;
    const replica = config.replica;
    const sparql = config.store.sparql!;
    node = replica
      ? await serveReplica({
          config,
          logger,
          reader,
          createNode,
          join: (standby, reach) => joinReplicaSet(replica, sparql, early, logger, standby, reach),
          serve,
        })
      : await createNode(config, logger, { reader });
  } catch (error) {
    if (
      error instanceof ConfigError ||
      error instanceof SeedError ||
      error instanceof StoreRecoveryError ||
      error instanceof SparqlStoreError ||
      error instanceof ReplicaSetError
    ) {
      logger.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  serve(node);
  logger.info('listening', {
    url: `http://${config.host}:${config.port}`,
    baseUrl: config.baseUrl,
    dataDir: config.replica ? undefined : config.dataDir,
  });
}

void main();
