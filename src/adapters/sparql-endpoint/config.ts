import { integerFrom as integerSetting, settingDefault } from '../../core/settings/read.js';

/** Limits of the SPARQL endpoint (DATASPACE_SPARQL_*), read once with the rest of the configuration. */
export interface SparqlConfig {
  /** A query still running after this long is stopped and answered 503. */
  timeoutMs: number;
  /** At most this many result rows (SELECT) or triples (CONSTRUCT/DESCRIBE) per answer. */
  maxResults: number;
  /** Largest query text accepted, in bytes. */
  maxQueryBytes: number;
  /** Deepest nesting of groups, brackets and parentheses a query may have. */
  maxDepth: number;
  /** Most triple patterns (including CONSTRUCT template triples and property paths) a query may have. */
  maxTriplePatterns: number;
  /** Queries one organisation may have waiting for the engine; more answer 503 to that organisation only. */
  maxWaitingPerOrg: number;
  /** Engine threads, each holding its own copy of the data graphs; an organisation runs on at most half (1 of 2). */
  threads: number;
  /** Engine threads are stopped, their copies freed, after this long without a query (0: never). */
  idleMs: number;
}

/** The environment variable behind each limit, for error messages and docs. */
export const SPARQL_LIMIT_VARIABLES = {
  maxQueryBytes: 'DATASPACE_SPARQL_MAX_QUERY_BYTES',
  maxDepth: 'DATASPACE_SPARQL_MAX_DEPTH',
  maxTriplePatterns: 'DATASPACE_SPARQL_MAX_TRIPLE_PATTERNS',
  maxWaitingPerOrg: 'DATASPACE_SPARQL_MAX_WAITING_PER_ORG',
} as const;

/**
 * Idle time after which the SPARQL engine frees its threads' copies of the data. Each copy costs about
 * as much memory as the main store's data graphs (docs/performance.md, Memory), and restarting one
 * reads the newest snapshot and the logs after it again (seconds per 10k consignments): five minutes
 * lets a burst of queries keep its threads and gives an endpoint used now and then its memory back.
 */
export const DEFAULT_SPARQL_IDLE_MS = settingDefault('DATASPACE_SPARQL_IDLE_MS');

/**
 * 256: a federated join (Comunica) sends one small query per binding, all at once, and 200 of them
 * answer within two seconds on an idle test node; 32 refused such bursts, most often on a node whose
 * threads were starting (the whole burst waits for them). What waits longer than the time limit is
 * answered 503 then and never runs, so this bound is on memory (256 × 64 KiB at most), not on time.
 */
export const DEFAULT_MAX_WAITING_PER_ORG = settingDefault('DATASPACE_SPARQL_MAX_WAITING_PER_ORG');

export function readSparqlConfig(env: NodeJS.ProcessEnv): SparqlConfig {
  return {
    timeoutMs: integerSetting(env, 'DATASPACE_SPARQL_TIMEOUT_MS'),
    maxResults: integerSetting(env, 'DATASPACE_SPARQL_MAX_RESULTS'),
    maxQueryBytes: integerSetting(env, SPARQL_LIMIT_VARIABLES.maxQueryBytes),
    maxDepth: integerSetting(env, SPARQL_LIMIT_VARIABLES.maxDepth),
    maxTriplePatterns: integerSetting(env, SPARQL_LIMIT_VARIABLES.maxTriplePatterns),
    maxWaitingPerOrg: integerSetting(env, SPARQL_LIMIT_VARIABLES.maxWaitingPerOrg),
    threads: integerSetting(env, 'DATASPACE_SPARQL_THREADS'),
    idleMs: integerSetting(env, 'DATASPACE_SPARQL_IDLE_MS'),
  };
}
