import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { ConfigError, integerSetting as integer } from './config-values.js';
import { projectRoot } from './project-paths.js';
import { readNotifyConfig, type NotifyConfig } from './notify/notify-config.js';
import { readSparqlConfig, type SparqlConfig } from './views/sparql-config.js';
import { readStoreConfig, type StoreConfig } from './store/store-config.js';
import { readFetchConfig, type FetchConfig } from './documents/fetch-config.js';
import { readOpsConfig, type OpsConfig } from './ops/ops-config.js';
import { readLoginConfig, type LoginConfig } from './auth/login-config.js';
import { readServerLimits, type ServerLimits } from './http/server-limits.js';
import { readPublicOrigins } from './http/own-origins.js';

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
  /** SIGTERM waits this long for in-flight requests before closing their connections. */
  shutdownTimeoutMs: number;
  /** Threads that turn inbox payloads into checked RDF (DATASPACE_READER_THREADS; 0 reads on the event loop). */
  readerThreads: number;
  /** Fetching Document files (DATASPACE_FETCH_*). */
  fetch: FetchConfig;
  /** Operations: the /metrics token (DATASPACE_METRICS_TOKEN). */
  ops: OpsConfig;
  /** Login throttling and password-check capacity (DATASPACE_LOGIN_*). */
  login: LoginConfig;
  /** Connection cap and timeouts (DATASPACE_HTTP_*). */
  server: ServerLimits;
}


/** Reads and checks the environment once, at start. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 3000);
  if (port > 65535) throw new ConfigError(`PORT must be ≤ 65535, got ${port}`);
  const baseUrl = (env.DATASPACE_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(baseUrl);
  } catch {
    throw new ConfigError(`DATASPACE_BASE_URL is not a URL: ${baseUrl}`);
  }
  const fsync = env.DATASPACE_FSYNC ?? 'on';
  if (fsync !== 'on' && fsync !== 'off') throw new ConfigError('DATASPACE_FSYNC must be on or off');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    baseUrl,
    publicOrigins: readPublicOrigins(env),
    dataDir: resolve(env.DATASPACE_DATA_DIR ?? './data'),
    seedPath: env.DATASPACE_SEED ? resolve(env.DATASPACE_SEED) : undefined,
    exampleSeedPath: resolve(projectRoot, 'examples', 'seed.json'),
    jwtSecret: env.JWT_SECRET || undefined,
    production: env.NODE_ENV === 'production',
    nodeName: env.DATASPACE_NODE_NAME ?? 'supply-chain-dataspace-node',
    tokenLifetimeSeconds: integer(env, 'DATASPACE_TOKEN_TTL_SECONDS', 3600, 60),
    bodyLimitBytes: integer(env, 'DATASPACE_BODY_LIMIT', 1024 * 1024, 1024),
    fsync: fsync === 'on',
    pageLimitDefault: 50,
    pageLimitMax: 500,
    notify: readNotifyConfig(env),
    sparql: readSparqlConfig(env),
    store: readStoreConfig(env),
    shutdownTimeoutMs: integer(env, 'DATASPACE_SHUTDOWN_TIMEOUT_MS', 10_000, 0),
    // One core stays with the event loop; at least one thread reads, so the loop never validates.
    readerThreads: integer(env, 'DATASPACE_READER_THREADS', Math.min(4, Math.max(1, availableParallelism() - 1)), 0),
    fetch: readFetchConfig(env),
    ops: readOpsConfig(env),
    login: readLoginConfig(env),
    server: readServerLimits(env),
  };
}
