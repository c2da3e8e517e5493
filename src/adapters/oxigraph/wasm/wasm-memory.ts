import type { StoreMemory } from '../../../core/store/capacity-guard.js';

// The bounds of the memory the embedded store lives in: here, beside the code that grows and images
// it, so the Oxigraph layer reads no configuration above it.

/**
 * The embedded store lives in one WebAssembly linear memory, 32-bit: 65,536 pages of 64 KiB. An
 * allocation past its end aborts the module and everything in memory is lost (the log keeps what was
 * acknowledged, but the node is down until restarted).
 */
export const WASM_MEMORY_BYTES = 4 * 1024 ** 3;

/**
 * Kept free below that end for what the store allocates besides its quads: query answers built inside
 * the module (a snapshot lists every subject of the metadata graph in one answer, the largest of
 * them near the quota: bench/results/2026-12-08-comment-figures.md), the allocator's slack and its
 * hash tables growing by doubling.
 */
export const WASM_RESERVE_BYTES = 512 * 1024 ** 2;

/** The embedded store's memory as the capacity guard watches it, given the bytes it uses now. */
export const wasmMemory = (usedBytes: () => number): StoreMemory => ({
  usedBytes,
  endBytes: WASM_MEMORY_BYTES,
  reserveBytes: WASM_RESERVE_BYTES,
});
