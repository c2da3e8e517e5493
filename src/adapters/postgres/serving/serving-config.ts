import { ConfigError } from '../../../core/config-values.js';
import { integerFrom as integer, textFrom } from '../../../core/settings/read.js';

/** How the replicas of a set serve together (docs/replicas.md "Every replica serves"). */
export interface ServingConfig {
  /** Where the other replicas reach this one when it holds the writer lease (DATASPACE_REPLICA_ADDRESS). */
  address: string;
  /** How often a follower reads the writer's commits whatever notifications it heard (DATASPACE_REPLICA_FOLLOW_MS). */
  followMs: number;
  /** How long a read sent with a Dataspace-Position waits for this replica to have it (DATASPACE_REPLICA_READ_WAIT_MS). */
  readWaitMs: number;
}

const WILDCARD = new Set(['0.0.0.0', '::', '']);

/** Read when the node runs as a replica; `host` and `port` are what it listens on. */
export function readServingConfig(env: NodeJS.ProcessEnv, host: string, port: number): ServingConfig {
  const raw = textFrom(env, 'DATASPACE_REPLICA_ADDRESS');
  let address: string;
  if (raw === undefined || raw === '') {
    // A replica listening on every interface is reached on its own machine at the loopback address.
    const reach = WILDCARD.has(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    address = `http://${reach}:${port}`;
  } else {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError(`DATASPACE_REPLICA_ADDRESS must be an http:// URL, got ${JSON.stringify(raw)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new ConfigError(`DATASPACE_REPLICA_ADDRESS must be an http:// or https:// URL, got ${url.protocol}`);
    address = url.origin;
  }
  return {
    address,
    followMs: integer(env, 'DATASPACE_REPLICA_FOLLOW_MS'),
    readWaitMs: integer(env, 'DATASPACE_REPLICA_READ_WAIT_MS'),
  };
}
