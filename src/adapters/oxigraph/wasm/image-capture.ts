import { nonZeroRuns, runBytes } from './image-pages.js';
import type { ImageHeader, MemoryImage, Primitive } from './memory-image.js';
import { oxigraphWasmHash, type OxigraphInstance } from './oxigraph-instance.js';

/** Taking a memory image (memory-image.ts): the memory copied out, and the state beside it. */

function isPrimitive(value: unknown): value is Primitive {
  return value === null || value === undefined || ['string', 'number', 'boolean'].includes(typeof value);
}

/**
 * What lives outside the instance's memory and an image must carry: the externref table's primitive
 * values and the exported globals. Undefined when the table holds something an image cannot carry (a
 * JS object). Synchronous, like the copy of the memory it goes with.
 */
export function instanceState(instance: OxigraphInstance): Pick<ImageHeader, 'table' | 'tableLength' | 'globals'> | undefined {
  const { wasm } = instance;
  const table = wasm.__wbindgen_externrefs;
  const slots: ImageHeader['table'] = [];
  for (let i = 0; i < table.length; i += 1) {
    const value: unknown = table.get(i);
    if (value === null) continue;
    if (!isPrimitive(value)) return undefined;
    // JSON has no undefined: it is marked apart.
    slots.push(value === undefined ? [i, 'u', null] : [i, 'v', value]);
  }
  const globals: Record<string, number> = {};
  for (const [name, value] of Object.entries(wasm)) {
    if (value instanceof WebAssembly.Global) globals[name] = Number(value.value);
  }
  return { table: slots, tableLength: table.length, globals };
}

/**
 * Copies the instance's memory and the state beside it, in one synchronous pass: called between two
 * calls into the module (nothing of it is on the stack), the copy is a consistent state of the store.
 * Undefined when the table holds something an image cannot carry (a JS object).
 */
export function captureImage(
  instance: OxigraphInstance,
  store: object,
  generation: number,
  quads: number,
  dead = 0,
  into?: Uint8Array,
): MemoryImage | undefined {
  const { wasm } = instance;
  const state = instanceState(instance);
  if (!state) return undefined;
  const { table: slots, tableLength, globals } = state;
  // Only the pages that are not all zeros are copied (a grown store's memory is about half zeros):
  // the copy is taken synchronously, so it is half as long a pause and half as much memory while the
  // image is written.
  const live = new Uint8Array(wasm.memory.buffer);
  const runs = nonZeroRuns(live);
  const parts = runBytes(live, runs);
  const bytes = parts.reduce((n, part) => n + part.length, 0);
  // Into a buffer made resident beforehand (see imageCopyBuffer) when one is given and large enough:
  // copying into fresh memory costs its page faults, into resident memory only the copy (figures:
  // bench/results/2026-12-08-comment-figures.md).
  const memory = into && into.length >= bytes ? into.subarray(0, bytes) : new Uint8Array(bytes);
  let at = 0;
  for (const part of parts) {
    memory.set(part, at);
    at += part.length;
  }
  const storePtr = (store as { __wbg_ptr?: number }).__wbg_ptr;
  const wasmHash = oxigraphWasmHash();
  if (typeof storePtr !== 'number' || storePtr === 0 || !wasmHash) return undefined;
  return {
    header: { wasmHash, generation, storePtr, quads, dead, memoryBytes: live.length, runs, crc32: 0, tableLength, table: slots, globals },
    memory,
  };
}
