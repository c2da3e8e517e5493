import { ConfigError } from './core/config-values.js';
import { integerFrom as integer, onOffFrom, settingDefault, textFrom } from './core/settings/read.js';
import { readCompactionSettings, type CompactionSettings } from './adapters/oxigraph/recovery/compaction-policy.js';
import { WASM_MEMORY_BYTES, WASM_RESERVE_BYTES } from './adapters/oxigraph/wasm/wasm-memory.js';
import type { SparqlStoreConfig } from './adapters/sparql-server/sparql-store-config.js';

/** Where the node keeps its quads (DATASPACE_STORE and friends), read once at start. */
export interface StoreConfig {
  kind: 'embedded' | 'sparql';
  sparql: SparqlStoreConfig | undefined;
  /** Embedded store: take a snapshot once the current change log has grown past this many bytes. */
  snapshotLogBytes: number;
  /** Refuse new writes with 507 once the store holds this many quads, or its memory nears its end (0 = no limit). */
  maxQuads: number;
  /** Embedded store: save memory images beside the snapshots and restart from them (DATASPACE_STORE_IMAGES). */
  images: boolean;
  /** Below this many quads a snapshot writes no image: the N-Quads load is then about as fast (DATASPACE_STORE_IMAGE_MIN_QUADS). */
  imageMinQuads: number;
  /** When a copy of the store is loaded afresh to free removed quads (DATASPACE_STORE_COMPACT_*, docs/memory-compaction.md). */
  compaction: CompactionSettings;
}

function httpUrl(env: NodeJS.ProcessEnv, name: string): string {
  const raw = textFrom(env, name);
  if (!raw) throw new ConfigError(`DATASPACE_STORE=sparql needs ${name}`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be an http: or https: URL, got ${raw}`);
  if (url.username || url.password)
    throw new ConfigError(`${name} must not carry credentials: use DATASPACE_SPARQL_USER and DATASPACE_SPARQL_PASSWORD`);
  return url.href;
}

/**
 * WebAssembly memory per quad of the store's main instance as it grows (the activity log has an
 * instance of its own, graph-apart.ts), measured with bench/capacity.ts (docs/performance.md, Capacity;
 * the figures: bench/results/2026-12-08-comment-figures.md): set so the quota falls just short of where
 * the memory check refuses, so the quota, not the memory, is what an operator meets first.
 */
export const STORE_BYTES_PER_QUAD = 320;

/** The default quota of the main instance's quads: those that fit in its memory left after the reserve, at the measured cost. */
export const DEFAULT_MAX_QUADS = Math.floor((WASM_MEMORY_BYTES - WASM_RESERVE_BYTES) / STORE_BYTES_PER_QUAD);

/**
 * An image is the store's whole linear memory (tens of MB even for a small store, grown ahead in 32 MB
 * steps), and a store below this loads from N-Quads quickly (figures:
 * bench/results/2026-12-08-comment-figures.md): below it, images would only cost disk writes.
 */
export const DEFAULT_IMAGE_MIN_QUADS = settingDefault('DATASPACE_STORE_IMAGE_MIN_QUADS');

export function readStoreConfig(env: NodeJS.ProcessEnv): StoreConfig {
  const kind = textFrom(env, 'DATASPACE_STORE');
  if (kind !== 'embedded' && kind !== 'sparql')
    throw new ConfigError(`DATASPACE_STORE must be embedded or sparql, got ${JSON.stringify(kind)}`);
  const user = textFrom(env, 'DATASPACE_SPARQL_USER') || undefined;
  const password = textFrom(env, 'DATASPACE_SPARQL_PASSWORD') || undefined;
  if ((user === undefined) !== (password === undefined))
    throw new ConfigError('Set both DATASPACE_SPARQL_USER and DATASPACE_SPARQL_PASSWORD, or neither');
  return {
    kind,
    sparql:
      kind === 'sparql'
        ? {
            queryUrl: httpUrl(env, 'DATASPACE_SPARQL_QUERY_URL'),
            updateUrl: httpUrl(env, 'DATASPACE_SPARQL_UPDATE_URL'),
            user,
            password,
            timeoutMs: integer(env, 'DATASPACE_SPARQL_STORE_TIMEOUT_MS'),
            foreignGraphsCheckMs: integer(env, 'DATASPACE_SPARQL_FOREIGN_GRAPHS_CHECK_MS'),
          }
        : undefined,
    snapshotLogBytes: integer(env, 'DATASPACE_SNAPSHOT_LOG_BYTES'),
    maxQuads: integer(env, 'DATASPACE_MAX_QUADS', kind === 'embedded' ? DEFAULT_MAX_QUADS : 0),
    images: onOffFrom(env, 'DATASPACE_STORE_IMAGES'),
    imageMinQuads: integer(env, 'DATASPACE_STORE_IMAGE_MIN_QUADS'),
    compaction: readCompactionSettings(env),
  };
}
