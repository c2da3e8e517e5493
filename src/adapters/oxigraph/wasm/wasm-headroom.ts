import oxigraph from 'oxigraph';
import type { WasmExports } from './oxigraph-instance.js';
import { WASM_MEMORY_BYTES, WASM_RESERVE_BYTES } from './wasm-memory.js';

const MB = 1024 * 1024;
/**
 * Where growing ahead stops: just short of the reserve below the 4 GiB a 32-bit WebAssembly memory can
 * reach, where the capacity guard stops taking activities (short of it, so that memory grown ahead and
 * not yet used never trips the guard's memory check). Past the point where growing ahead stops, the store's
 * allocator grows the memory a few pages at a time and V8 answers every growth with a GC, and filling
 * a store through the inbox slows to a crawl (the figures: bench/results/2026-12-08-comment-figures.md).
 * So it stops where writes stop; only transient allocations (query answers, a snapshot's lists) grow
 * it further, into the reserve.
 */
const WASM_CEILING = WASM_MEMORY_BYTES - WASM_RESERVE_BYTES - 16 * MB;

/**
 * Makes Oxigraph's WebAssembly memory grow by about `bytes` now, in one step, and hands the space back
 * to its allocator, which serves the store's next allocations from it.
 *
 * Why: the store's memory otherwise grows a few pages at a time as quads arrive, and every growth
 * replaces the memory's ArrayBuffer; V8 answers each jump in external memory with a scavenge. Grown
 * ahead, those scavenges for "external memory pressure" all but stop, and a Create takes less CPU
 * (the figures: bench/results/2026-12-08-comment-figures.md).
 *
 * How: any string passed into the module is copied into memory the module allocates and frees after
 * the call. A string that is not ASCII after its first character is sized at three bytes a character
 * up front and copied natively; the leading ':' is an IRI without a scheme, refused at its first
 * character, so nothing else is done with it. After the one non-ASCII character the string
 * is ASCII, written at one byte of the three reserved: the pages written become resident and stay so
 * (a WebAssembly memory never shrinks), and the store fills the rest only as it needs it. With a
 * two-byte character throughout, two thirds of every growth were resident at once.
 */
export function growWasmMemory(bytes: number, module: Pick<typeof oxigraph, 'namedNode'> = oxigraph, memory?: WebAssembly.Memory): void {
  // A 32-bit WebAssembly memory ends at 4 GiB, and an allocation the module cannot get aborts it: never
  // ask for room that would take it near that end (external memory is mostly the shared instance's
  // memory; a store with an instance of its own knows its memory's size).
  const room = Math.min(bytes, WASM_CEILING - (memory ? memory.buffer.byteLength : process.memoryUsage().external));
  if (room < MB) return;
  try {
    module.namedNode(`:\u00e9${'a'.repeat(Math.ceil(room / 3))}`);
  } catch {
    // Refused, as intended: the memory was taken and given back.
  }
}

/**
 * growWasmMemory for an instance the project holds (oxigraph-instance.ts): the room is taken from the
 * module's allocator and given back through the glue's own exports, so nothing is written into it but
 * the allocator's bookkeeping, and no page of it is resident before the store uses it. The string
 * above writes a third of every growth, all on the event loop, where the first touch of each page is
 * a fault the kernel serves (the figures: bench/results/2026-12-08-comment-figures.md).
 */
export function growInstanceMemory(bytes: number, wasm: WasmExports): void {
  const room = Math.min(bytes, WASM_CEILING - wasm.memory.buffer.byteLength);
  if (room < MB) return;
  const malloc = wasm.__wbindgen_malloc as (size: number, align: number) => number;
  const free = wasm.__wbindgen_free as (ptr: number, size: number, align: number) => void;
  free(malloc(room, 1), room, 1);
}

/** Oxigraph's in-memory store takes about this much WebAssembly memory per quad: a little over what was measured. */
const BYTES_PER_QUAD = 320;
/** One growth at most: the string that makes it must stay under V8's longest string (~2^29 characters). */
const MAX_STEP = 1024 * MB;

/**
 * Keeps room in this thread's WebAssembly memory ahead of the quads its stores take in: when they come
 * near what the last growth made room for, grows again by a quarter of what they hold (at least 32 MB,
 * at most 256 MB), so the memory grows in a few large steps instead of thousands of small ones.
 * Deletes are not counted: the space they free is reused, so the estimate only errs towards more room.
 */
export class WasmHeadroom {
  private quads = 0;
  private roomFor = 0;

  /** `room`: bytes already grown and not yet used (a memory restored from an image has its headroom with it). */
  constructor(
    private readonly growBy: (bytes: number) => void = growWasmMemory,
    room = 0,
  ) {
    this.roomFor = Math.floor(room / BYTES_PER_QUAD);
  }

  /** Quads about to be loaded in bulk (a snapshot): room for all of them at once. */
  expect(quads: number): void {
    this.grow(Math.min(MAX_STEP, quads * BYTES_PER_QUAD));
  }

  added(quads: number): void {
    this.quads += quads;
    if (this.quads >= this.roomFor) this.grow(Math.min(256 * MB, Math.max(32 * MB, Math.round(this.quads * BYTES_PER_QUAD * 0.25))));
  }

  private grow(bytes: number): void {
    this.growBy(bytes);
    this.roomFor = this.quads + Math.floor(bytes / BYTES_PER_QUAD);
  }
}

/** The one WebAssembly instance of this thread (module instances are per thread) has one headroom. */
export const wasmHeadroom = new WasmHeadroom();
