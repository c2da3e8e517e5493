import { integerSetting } from '../config-values.js';

/** Limits of the SPARQL endpoint (DATASPACE_SPARQL_*), read once with the rest of the configuration. */
export interface SparqlConfig {
  /** A query still running after this long is stopped and answered 503. */
  timeoutMs: number;
  /** At most this many result rows (SELECT) or triples (CONSTRUCT/DESCRIBE) per answer. */
  maxResults: number;
  /** Largest query text accepted, in bytes. */
  maxQueryBytes: number;
}


export function readSparqlConfig(env: NodeJS.ProcessEnv): SparqlConfig {
  return {
    timeoutMs: integerSetting(env, 'DATASPACE_SPARQL_TIMEOUT_MS', 10_000, 1),
    maxResults: integerSetting(env, 'DATASPACE_SPARQL_MAX_RESULTS', 10_000, 1),
    maxQueryBytes: integerSetting(env, 'DATASPACE_SPARQL_MAX_QUERY_BYTES', 64 * 1024, 1),
  };
}
