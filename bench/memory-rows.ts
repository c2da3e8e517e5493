/**
 * The bench's memory rows (issue 18): RSS per 10k consignments, with the store loaded and with the
 * SPARQL engine's threads loaded, and the consignments the embedded store holds before the capacity
 * guard answers 507 at its default quota. See docs/performance.md, Memory.
 */
import { DEFAULT_MAX_QUADS, STORE_BYTES_PER_QUAD } from '../src/store-config.js';
import { WASM_MEMORY_BYTES, WASM_RESERVE_BYTES } from '../src/adapters/oxigraph/wasm/wasm-memory.js';
import { checkIfMeaningful, type Row } from './table.js';

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

/**
 * How far one RSS reading moves whatever the data: the garbage collectors, the WebAssembly memory's
 * growth steps (32–256 MB, src/adapters/oxigraph/wasm/wasm-headroom.ts) and pages touched once. A quick run's two
 * readings, 300 and 1,000 consignments apart, differed by −70 MB where the data accounts for ~+20 MB.
 */
export const RSS_NOISE_MB = 100;
/** The RSS target, per 10k consignments with the store loaded (issue 18). */
const RSS_TARGET_MB = 250;

/**
 * Why a slope of RSS between two scales says nothing of a per-10k target, or undefined when it does:
 * each reading's noise moves the slope by up to 2 × RSS_NOISE_MB over the span, and that must stay
 * within a fifth of the target (so ≥ 40,000 consignments between the scales for 250 MB).
 */
export function slopeNotMeaningful(fromScale: number, toScale: number, targetMb = RSS_TARGET_MB): string | undefined {
  const span = toScale - fromScale;
  const errorMb = span > 0 ? ((2 * RSS_NOISE_MB) / span) * 10_000 : Infinity;
  if (errorMb <= 0.2 * targetMb) return undefined;
  const needed = Math.ceil(((2 * RSS_NOISE_MB) / (0.2 * targetMb)) * 10_000);
  const fmt = (n: number) => n.toLocaleString('en-GB');
  return `at ${fmt(fromScale)}→${fmt(toScale)}: ${RSS_NOISE_MB} MB of noise in each reading moves a slope over ${fmt(span)} consignments by up to ${Number.isFinite(errorMb) ? fmt(Math.round(errorMb)) : '∞'} MB; it needs ≥ ${fmt(needed)} between the scales`;
}

/** RSS per 10k consignments between the smallest and the largest scale, without and with the engine. */
export function rssRows(scales: MemoryAtScale[]): Row[] {
  if (scales.length < 2) return [];
  const [a, b] = [scales[0]!, scales.at(-1)!];
  const stored = `${a.scale.toLocaleString('en-GB')}→${b.scale.toLocaleString('en-GB')}`;
  const store = slopeMb(a.rssStoreMb, b.rssStoreMb, a, b);
  const engine = slopeMb(a.rssEngineMb, b.rssEngineMb, a, b);
  const notMeaningful = slopeNotMeaningful(a.scale, b.scale);
  return [
    {
      measure: 'RSS per 10k consignments (slope), store loaded, SPARQL engine not running (not started, or released when idle)',
      stored,
      concurrency: '',
      value: `${store.toFixed(0)} MB`,
      target: checkIfMeaningful(`≤ ${RSS_TARGET_MB} MB`, store <= RSS_TARGET_MB, notMeaningful),
    },
    {
      measure: 'RSS per 10k consignments (slope), SPARQL engine threads loaded (DATASPACE_SPARQL_THREADS)',
      stored,
      concurrency: '',
      value: `${engine.toFixed(0)} MB`,
      target: notMeaningful ? `not meaningful ${notMeaningful}` : '',
    },
  ];
}

/** The share of the largest scale's quota quads that is no consignment's (the seed's users and policies). */
const FIXED_SHARE_LIMIT = 0.02;

/**
 * Why quads per consignment at the largest scale misstate the capacity, or undefined: with two scales,
 * the fixed quads (largest ÷ scale against the slope between the scales) must stay under 2 %.
 */
export function capacityNotMeaningful(scales: MemoryAtScale[]): string | undefined {
  if (scales.length < 2) return undefined;
  const [a, b] = [scales[0]!, scales.at(-1)!];
  const slope = (b.quotaQuads - a.quotaQuads) / (b.scale - a.scale);
  const fixedShare = 1 - slope / (b.quotaQuads / b.scale);
  if (!(slope > 0) || Math.abs(fixedShare) > FIXED_SHARE_LIMIT) {
    return `at ${b.scale.toLocaleString('en-GB')}: quads the consignments do not account for are ${(fixedShare * 100).toFixed(1)} % of the store (≤ ${FIXED_SHARE_LIMIT * 100} % to extrapolate)`;
  }
  return undefined;
}

/**
 * Consignments the default quota admits, at the quads per consignment of the largest scale (the bench's
 * mix: every tenth consignment with an event and a document). Derived, not filled to the end: filling
 * the store to 507 takes longer than the whole bench (bench/capacity.ts does it; docs/performance.md).
 */
export function capacityRow(scales: MemoryAtScale[]): Row {
  const largest = scales.at(-1)!;
  // The quota counts the quads of the store's main instance (the activity log has an instance of its own).
  const perConsignment = largest.quotaQuads / largest.scale;
  const consignments = Math.floor(DEFAULT_MAX_QUADS / perConsignment);
  const gib = (bytes: number) => (bytes / 1024 ** 3).toFixed(2);
  return {
    measure: `Consignments the embedded store holds before 507: default quota ${DEFAULT_MAX_QUADS.toLocaleString('en-GB')} quads = (${gib(WASM_MEMORY_BYTES)} GiB WebAssembly memory − ${gib(WASM_RESERVE_BYTES)} GiB reserve) ÷ ${STORE_BYTES_PER_QUAD} B a quad, ÷ ${perConsignment.toFixed(1)} quads a consignment in the main instance (bench/capacity.js fills to the 507)`,
    stored: largest.scale.toLocaleString('en-GB'),
    concurrency: '',
    value: consignments.toLocaleString('en-GB'),
    target: checkIfMeaningful('≥ 150,000', consignments >= 150_000, capacityNotMeaningful(scales)),
  };
}
