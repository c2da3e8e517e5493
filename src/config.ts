import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { ConfigError } from './core/config-values.js';
import { integerFrom as integer, textFrom } from './core/settings/read.js';
import { refuseUnknownSettings } from './core/settings/unknown.js';
import { projectRoot } from './core/project-paths.js';
import { readNotifyConfig, type NotifyConfig } from './core/notify/notify-config.js';
import { readSparqlConfig, type SparqlConfig } from './adapters/sparql-endpoint/config.js';
import { readStoreConfig, type StoreConfig } from './store-config.js';
import { readReplicaConfig, type ReplicaConfig } from './adapters/postgres/replica-config.js';
import { readFetchConfig, type FetchConfig } from './core/documents/fetch-config.js';
import { readOpsConfig, type OpsConfig } from './adapters/ops/ops-config.js';
import { readLoginConfig, type LoginConfig } from './core/auth/login-config.js';
import { readServerLimits, type ServerLimits } from './adapters/http/server-limits.js';
import { readQuotaConfig, type QuotaConfig } from './core/quotas/quota-config.js';
import type { ReaderQueueLimits } from './core/activities/reader-pool.js';
import { readPublicOrigins } from './adapters/http/own-origins.js';
import { DEFAULT_WINDOW, type IdempotencyWindow } from './core/activities/idempotency.js';

export { ConfigError };

export interface Config {
  port: number;
  host: string;
  /** Public base URL used in links (hrefs, signals); defaults to http://localhost:PORT. */
  baseUrl: string;
  /** Origins a proxy serves the node at, besides the base URL's and the one each request reached (DATASPACE_PUBLIC_ORIGINS). */
  publicOrigins: string[];
  dataDir: string;
  /** Seed file; undefined means the bundled example seed. */
  seedPath: string | undefined;
  exampleSeedPath: string;
  jwtSecret: string | undefined;
  production: boolean;
  nodeName: string;
  tokenLifetimeSeconds: number;
  /** How long a session lasts from its login, refreshes included (DATASPACE_SESSION_MAX_SECONDS). */
  sessionMaxSeconds: number;
  bodyLimitBytes: number;
  fsync: boolean;
  pageLimitDefault: number;
  pageLimitMax: number;
  /** Signal delivery: retry schedule, timeout, concurrency (DATASPACE_NOTIFY_*). */
  notify: NotifyConfig;
  /** SPARQL endpoint limits (DATASPACE_SPARQL_*). */
  sparql: SparqlConfig;
  /** Where quads live: embedded (WAL + snapshots) or a SPARQL server (DATASPACE_STORE*, DATASPACE_SNAPSHOT_*, DATASPACE_MAX_QUADS). */
  store: StoreConfig;
  /** Replica mode (DATABASE_URL): the node's shared state in PostgreSQL, one writer a replica set (docs/replicas.md). */
  replica: ReplicaConfig | undefined;
  /** SIGTERM waits this long for in-flight requests before closing their connections. */
  shutdownTimeoutMs: number;
  /** Threads that turn inbox payloads into checked RDF (DATASPACE_READER_THREADS; 0 reads on the event loop). */
  readerThreads: number;
  /** Payloads waiting for a reader thread, per organisation and in all, and the small ones' lane (DATASPACE_READER_QUEUE*, DATASPACE_READER_SMALL_VALUES). */
  readerQueue: ReaderQueueLimits;
  /** Applied activity ids remembered for retries: 7 days, and at most this many per organisation (DATASPACE_IDEMPOTENCY_IDS_PER_ORG). */
  idempotency: IdempotencyWindow;
  /** Fetching Document files (DATASPACE_FETCH_*). */
  fetch: FetchConfig;
  /** Operations: the /metrics token (DATASPACE_METRICS_TOKEN). */
  ops: OpsConfig;
  /** Login throttling and password-check capacity (DATASPACE_LOGIN_*). */
  login: LoginConfig;
  /** Connection cap and timeouts (DATASPACE_HTTP_*). */
  server: ServerLimits;
  /** What each organisation may have the node store (DATASPACE_QUOTA_*, src/core/quotas/quota-config.ts). */
  quotas: QuotaConfig;
  /** Express `trust proxy` (DATASPACE_TRUSTED_PROXIES): whose X-Forwarded-For names the client; false trusts none. */
  trustedProxies: string | false;
  /** How long a machine client's previous secret still works after a rotation (DATASPACE_CLIENT_SECRET_OVERLAP_SECONDS). */
  clientSecretOverlapSeconds: number;
  /** Client assertion ids (jti) the replay cache holds per organisation (DATASPACE_ASSERTION_REPLAY_PER_ORG). */
  assertionReplayPerOrg: number;
}

/**
 * DATASPACE_TRUSTED_PROXIES: the reverse proxies in front of the node, as addresses, CIDR ranges or
 * express's names (loopback, linklocal, uniquelocal), comma-separated. Only these may name the client
 * in X-Forwarded-For; unset, nobody may, and the client is the TCP peer.
 */
function readTrustedProxies(env: NodeJS.ProcessEnv): string | false {
  const value = textFrom(env, 'DATASPACE_TRUSTED_PROXIES')?.trim();
  if (!value) return false;
  const entries = value.split(',').map((e) => e.trim());
  const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const ok = named.has(entry) || (extra === undefined && isIP(address ?? '') !== 0 && (bits === undefined || /^\d{1,3}$/.test(bits)));
    if (!ok)
      throw new ConfigError(
        `DATASPACE_TRUSTED_PROXIES: ${JSON.stringify(entry)} is not an address, a CIDR range or one of loopback, linklocal, uniquelocal`,
      );
  }
  return entries.join(',');
}

function seedPath(env: NodeJS.ProcessEnv): string | undefined {
  const seed = textFrom(env, 'DATASPACE_SEED');
  return seed ? resolve(seed) : undefined;
}

/** Reads and checks the environment once, at start. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  refuseUnknownSettings(env);
  const port = integer(env, 'PORT');
  if (port > 65535) throw new ConfigError(`PORT must be ≤ 65535, got ${port}`);
  const baseUrl = (textFrom(env, 'DATASPACE_BASE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(baseUrl);
  } catch {
    throw new ConfigError(`DATASPACE_BASE_URL is not a URL: ${baseUrl}`);
  }
  const fsync = textFrom(env, 'DATASPACE_FSYNC');
  if (fsync !== 'on' && fsync !== 'off') throw new ConfigError('DATASPACE_FSYNC must be on or off');
  return {
    port,
    host: textFrom(env, 'HOST') ?? '0.0.0.0',
    baseUrl,
    publicOrigins: readPublicOrigins(env),
    dataDir: resolve(textFrom(env, 'DATASPACE_DATA_DIR') ?? './data'),
    seedPath: seedPath(env),
    exampleSeedPath: resolve(projectRoot, 'examples', 'seed.json'),
    jwtSecret: textFrom(env, 'JWT_SECRET') || undefined,
    production: textFrom(env, 'NODE_ENV') === 'production',
    nodeName: textFrom(env, 'DATASPACE_NODE_NAME') ?? 'supply-chain-dataspace-node',
    tokenLifetimeSeconds: integer(env, 'DATASPACE_TOKEN_TTL_SECONDS'),
    sessionMaxSeconds: integer(env, 'DATASPACE_SESSION_MAX_SECONDS'),
    bodyLimitBytes: integer(env, 'DATASPACE_BODY_LIMIT'),
    fsync: fsync === 'on',
    pageLimitDefault: 50,
    pageLimitMax: 500,
    notify: readNotifyConfig(env),
    sparql: readSparqlConfig(env),
    store: readStoreConfig(env),
    replica: readReplicaConfig(env),
    shutdownTimeoutMs: integer(env, 'DATASPACE_SHUTDOWN_TIMEOUT_MS'),
    // One core stays with the event loop; at least one thread reads, so the loop never validates.
    readerThreads: integer(env, 'DATASPACE_READER_THREADS', Math.min(4, Math.max(1, availableParallelism() - 1))),
    readerQueue: {
      perOrganisation: integer(env, 'DATASPACE_READER_QUEUE_PER_ORG'),
      total: integer(env, 'DATASPACE_READER_QUEUE'),
      smallValues: integer(env, 'DATASPACE_READER_SMALL_VALUES'),
    },
    idempotency: { ...DEFAULT_WINDOW, maxIdsPerActor: integer(env, 'DATASPACE_IDEMPOTENCY_IDS_PER_ORG') },
    fetch: readFetchConfig(env),
    ops: readOpsConfig(env),
    login: readLoginConfig(env),
    server: readServerLimits(env),
    quotas: readQuotaConfig(env),
    trustedProxies: readTrustedProxies(env),
    clientSecretOverlapSeconds: integer(env, 'DATASPACE_CLIENT_SECRET_OVERLAP_SECONDS'),
    assertionReplayPerOrg: integer(env, 'DATASPACE_ASSERTION_REPLAY_PER_ORG'),
  };
}
