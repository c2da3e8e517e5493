import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../src/core/logger.js';
import { createNode, type DataspaceNode } from '../../src/node.js';
import type { OwnState } from '../../src/own-state.js';
import { FollowerRole } from '../../src/adapters/postgres/serving/follower-role.js';
import { followerState } from '../../src/adapters/postgres/serving/follower-state.js';
import { servingPool } from '../../src/run-replica.js';
import { WriterAddress } from '../../src/adapters/postgres/serving/writer-address.js';
import { WriterRole } from '../../src/adapters/postgres/serving/writer-role.js';
import { writeRetry } from '../../src/adapters/postgres/postgres-outage.js';
import type { Config } from '../../src/config.js';
import type { PayloadValidator } from '../../src/core/validation/index.js';
import { freePort } from './free-port.js';
import { HaProxy } from './haproxy.js';

/**
 * DATASPACE_TEST_SPREAD=1, with DATASPACE_TEST_SPARQL_URL and DATASPACE_TEST_DATABASE_URL: every
 * TestNode is a replica set of two behind HAProxy (deploy/haproxy.cfg), its requests spread over them:
 * the writer, and a follower that answers reads itself and forwards writes to the writer
 * (docs/replicas.md "Every replica serves"). The test client sends back the Dataspace-Position it was
 * last given, for read-your-writes.
 */
export const spreadMode = (): boolean => process.env.DATASPACE_TEST_SPREAD === '1' && !!process.env.DATASPACE_TEST_DATABASE_URL;

const listening = async (): Promise<{ server: Server; port: number }> => {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  return { server, port: (server.address() as AddressInfo).port };
};

export interface SpreadAddresses {
  follower: { server: Server; port: number };
  proxyPort: number;
  /** The proxy's address: the set's DATASPACE_BASE_URL. */
  url: string;
}

/**
 * The follower's server and the proxy's port: known before either node is made, so links carry the
 * proxy's address. The proxy starts once both serve (before, its checks would hang on them).
 */
export async function spreadAddresses(): Promise<SpreadAddresses> {
  const follower = await listening();
  const proxyPort = await freePort();
  return { follower, proxyPort, url: `http://127.0.0.1:${proxyPort}` };
}

export interface SpreadParts {
  config: Config;
  /** The follower's config: the same, on its own port. */
  followerConfig: Config;
  databaseUrl: string;
  ownState: OwnState;
  logger: Logger;
  validator: PayloadValidator;
  addresses: SpreadAddresses;
  /** Serves the writer's app on its server (TestNode's). */
  serveWriter: (app: DataspaceNode['app']) => void;
}

/** Builds the writer and the follower and serves each; resolves with the writer's node and what closes the rest. */
export async function startSpreadSet(parts: SpreadParts): Promise<{ node: DataspaceNode; closeFollower: () => Promise<void> }> {
  const { config, databaseUrl, logger, validator } = parts;
  const pool = await servingPool(databaseUrl);
  const tag = () => `test:${process.pid}:${randomBytes(4).toString('hex')}`;
  const retry = writeRetry(logger);
  const writerRole = new WriterRole(
    pool,
    new WriterAddress(pool),
    tag(),
    `http://127.0.0.1:${config.port}`,
    (reason) => logger.error('the spread set’s writer failed', { reason }),
    retry,
  );
  const node = await createNode(config, logger, { validator, ownState: parts.ownState, serving: writerRole });
  parts.serveWriter(node.app);
  await writerRole.published();
  const role = await FollowerRole.begin(pool, new WriterAddress(pool), { databaseUrl, followMs: 500, readWaitMs: 5000 }, logger);
  const follower = await createNode(parts.followerConfig, logger, {
    validator,
    ownState: followerState(pool, logger, { holder: tag(), leaseMs: 3000 }),
    serving: role,
  });
  const { server, port } = parts.addresses.follower;
  server.on('request', follower.app);
  // Both replicas run in the test's process: a check every 2 s (and as long to answer), so a busy
  // moment of that process does not take both out of the proxy at once.
  const proxy = await HaProxy.start([parts.config.port, port], 2000, parts.addresses.proxyPort);
  await proxy.settled();
  return {
    node,
    closeFollower: async () => {
      await proxy.stop();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await follower.close();
      await pool.end();
    },
  };
}
