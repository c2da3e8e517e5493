import { ConfigError } from '../config.js';

/** Limits of the SPARQL endpoint (DATASPACE_SPARQL_*), read once with the rest of the configuration. */
export interface SparqlConfig {
  /** A query still running after this long is stopped and answered 503. */
  timeoutMs: number;
  /** At most this many result rows (SELECT) or triples (CONSTRUCT/DESCRIBE) per answer. */
  maxResults: number;
  /** Largest query text accepted, in bytes. */
  maxQueryBytes: number;
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new ConfigError(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

export function readSparqlConfig(env: NodeJS.ProcessEnv): SparqlConfig {
  return {
    timeoutMs: positive(env, 'DATASPACE_SPARQL_TIMEOUT_MS', 10_000),
    maxResults: positive(env, 'DATASPACE_SPARQL_MAX_RESULTS', 10_000),
    maxQueryBytes: positive(env, 'DATASPACE_SPARQL_MAX_QUERY_BYTES', 64 * 1024),
  };
}
