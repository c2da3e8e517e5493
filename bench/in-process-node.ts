import { readConfig, type Config } from '../src/config.js';
import { createLogger } from '../src/core/logger.js';
import { createNode } from '../src/node.js';
import type { Principal } from '../src/core/auth/principal.js';
import { BENCH_SEED, BENCH_USERS } from './users.js';

/**
 * A node made in this process on `dataDir`, for benches that drive its inbox pipeline directly
 * (Ingest.receive): production settings, the bench's seed, fsync off, and no snapshot unless the bench
 * takes one; `env` adds or overrides settings. With the forwarder's principal, who publishes.
 */
export async function inProcessNode(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ config: Config; node: Awaited<ReturnType<typeof createNode>>; principal: Principal }> {
  const config = readConfig({
    ...process.env,
    NODE_ENV: 'production',
    DATASPACE_DATA_DIR: dataDir,
    DATASPACE_SEED: BENCH_SEED,
    DATASPACE_FSYNC: 'off',
    DATASPACE_SNAPSHOT_LOG_BYTES: String(Number.MAX_SAFE_INTEGER),
    PORT: '0',
    ...env,
  });
  const node = await createNode(config, createLogger('warn'));
  const org = node.registry.organisation(node.users.organisationOf(BENCH_USERS.forwarder.email)!)!;
  return { config, node, principal: { email: BENCH_USERS.forwarder.email, org } };
}
