import { ConfigError } from '../../core/config-values.js';
import { integerFrom as integer, textFrom } from '../../core/settings/read.js';

/** Replica mode (docs/replicas.md): the node's shared state in PostgreSQL, read once at start. */
export interface ReplicaConfig {
  /** DATABASE_URL: postgres://… or postgresql://… */
  databaseUrl: string;
  /** How often the writer renews its lease, and a standby asks for it (DATASPACE_REPLICA_CHECK_MS). */
  checkMs: number;
  /** How long a renewal keeps the lease, by PostgreSQL's clock (DATASPACE_REPLICA_LEASE_MS): a frozen writer is replaced after it. */
  leaseMs: number;
  /**
   * How long a replica that takes the lease from one that died waits before reading the store
   * (DATASPACE_REPLICA_TAKEOVER_MS): an Update request the dead writer had sent may still be applied
   * by the SPARQL server after its death, and the new writer must read the store after it.
   */
  takeoverMs: number;
}

/** Undefined without DATABASE_URL: the node then keeps its own state, as a single process. */
export function readReplicaConfig(env: NodeJS.ProcessEnv): ReplicaConfig | undefined {
  const raw = textFrom(env, 'DATABASE_URL');
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL is not a URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new ConfigError(`DATABASE_URL must be a postgres:// or postgresql:// URL, got ${url.protocol}`);
  if (textFrom(env, 'DATASPACE_STORE') !== 'sparql')
    throw new ConfigError(
      'DATABASE_URL runs the node as a replica, which needs DATASPACE_STORE=sparql: the embedded store lives in one process',
    );
  const checkMs = integer(env, 'DATASPACE_REPLICA_CHECK_MS');
  const leaseMs = integer(env, 'DATASPACE_REPLICA_LEASE_MS', 3 * checkMs);
  // Two renewals at least within a lease: one late or lost renewal must not cost the writer its lease.
  if (leaseMs < 2 * checkMs)
    throw new ConfigError(`DATASPACE_REPLICA_LEASE_MS (${leaseMs}) must be at least twice DATASPACE_REPLICA_CHECK_MS (${checkMs})`);
  return { databaseUrl: raw, checkMs, leaseMs, takeoverMs: integer(env, 'DATASPACE_REPLICA_TAKEOVER_MS') };
}
