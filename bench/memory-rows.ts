/**
 * The bench's memory rows (issue 18): RSS per 10k consignments, with the store loaded and with the
 * SPARQL engine's threads loaded, and the consignments the embedded store holds before the capacity
 * guard answers 507 at its default quota. See docs/performance.md, Memory.
 */
import { DEFAULT_MAX_QUADS, STORE_BYTES_PER_QUAD, WASM_MEMORY_BYTES, WASM_RESERVE_BYTES } from '../src/store/store-config.js';
import { check, type Row } from './table.js';

/** Lets the bench read the node's /metrics (bench-only; the node is on 127.0.0.1). */
export const METRICS_TOKEN = 'bench-metrics-token-not-secret';

export interface MemoryAtScale {
  scale: number;
  /** RSS with the store loaded and views read, before any SPARQL query (no engine thread running). */
  rssStoreMb: number;
  /** RSS after the SPARQL reads: the engine threads hold their copies. */
  rssEngineMb: number;
  /** Quads the store holds (dataspace_store_quads). */
  quads: number;
  /** Quads the quota counts (dataspace_store_quota_used_quads): those of the store's main instance. */
  quotaQuads: number;
}

/** The store's quad counts from the node's /metrics: all it holds, and those its quota counts. */
export async function storeQuads(url: string): Promise<{ quads: number; quotaQuads: number }> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const gauge = (name: string): number => {
    const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)`, 'm').exec(text);
    if (res.status !== 200 || !match) throw new Error(`/metrics: ${res.status}, no ${name}`);
    return Number(match[1]);
  };
  return { quads: gauge('dataspace_store_quads'), quotaQuads: gauge('dataspace_store_quota_used_quads') };
}

const slopeMb = (a: number, b: number, from: MemoryAtScale, to: MemoryAtScale): number => ((b - a) / (to.scale - from.scale)) * 10_000;

/** RSS per 10k consignments between the smallest and the largest scale, without and with the engine. */
export function rssRows(scales: MemoryAtScale[]): Row[] {
  if (scales.length < 2) return [];
  const [a, b] = [scales[0], scales.at(-1)!];
  const stored = `${a.scale.toLocaleString('en-GB')}→${b.scale.toLocaleString('en-GB')}`;
  const store = slopeMb(a.rssStoreMb, b.rssStoreMb, a, b);
  const engine = slopeMb(a.rssEngineMb, b.rssEngineMb, a, b);
  return [
    { measure: 'RSS per 10k consignments (slope), store loaded, SPARQL engine not running (not started, or released when idle)', stored, concurrency: '', value: `${store.toFixed(0)} MB`, target: check('≤ 250 MB', store <= 250) },
    { measure: 'RSS per 10k consignments (slope), SPARQL engine threads loaded (DATASPACE_SPARQL_THREADS)', stored, concurrency: '', value: `${engine.toFixed(0)} MB` },
  ];
}

/**
 * Consignments the default quota admits, at the quads per consignment of the largest scale (the bench's
 * mix: every tenth consignment with an event and a document). Derived, not filled to the end: filling
 * the store to 507 takes longer than the whole bench (bench/capacity.ts does it; docs/performance.md).
 */
export function capacityRow(largest: MemoryAtScale): Row {
  // The quota counts the quads of the store's main instance (the activity log has an instance of its own).
  const perConsignment = largest.quotaQuads / largest.scale;
  const consignments = Math.floor(DEFAULT_MAX_QUADS / perConsignment);
  const gib = (bytes: number) => (bytes / 1024 ** 3).toFixed(2);
  return {
    measure: `Consignments the embedded store holds before 507: default quota ${DEFAULT_MAX_QUADS.toLocaleString('en-GB')} quads = (${gib(WASM_MEMORY_BYTES)} GiB WebAssembly memory − ${gib(WASM_RESERVE_BYTES)} GiB reserve) ÷ ${STORE_BYTES_PER_QUAD} B a quad, ÷ ${perConsignment.toFixed(1)} quads a consignment in the main instance (bench/capacity.js fills to the 507)`,
    stored: largest.scale.toLocaleString('en-GB'),
    concurrency: '',
    value: consignments.toLocaleString('en-GB'),
    target: check('≥ 150,000', consignments >= 150_000),
  };
}
