import oxigraph from 'oxigraph';
import type { MemoryImage } from './wasm/memory-image.js';
import { newOxigraphInstance, type OxigraphInstance } from './wasm/oxigraph-instance.js';
import { growInstanceMemory, WasmHeadroom, wasmHeadroom } from './wasm/wasm-headroom.js';

/**
 * Where a store's memory comes from: the package's shared instance (the default), a WebAssembly
 * instance of its own (`'own'`: its memory then holds only this store, and can be saved as an image),
 * or one restored from an image.
 */
export type StoreMemory =
  | 'shared'
  | 'own'
  | {
      instance: OxigraphInstance;
      store: oxigraph.Store;
      quads: number;
      dead?: number;
      /** Bytes of the memory the store has not used yet (an image's pages of zeros): the headroom it starts with. */
      room?: number;
    };

/** The memory a store lives in; replaced whole when the store is compacted (OxigraphStore.adopt). */
export interface Memory {
  readonly store: oxigraph.Store;
  readonly instance: OxigraphInstance | undefined;
  readonly headroom: WasmHeadroom;
}

/** The memory `memory` names, with the quads it holds and the removed quads it still keeps. */
export function openMemory(memory: StoreMemory): { memory: Memory; quads: number; dead: number } {
  const instance = memory === 'shared' ? undefined : memory === 'own' ? newOxigraphInstance() : memory.instance;
  let store: oxigraph.Store;
  let quads = 0;
  let dead = 0;
  if (typeof memory === 'object') {
    store = memory.store;
    quads = memory.quads;
    dead = memory.dead ?? 0;
  } else {
    store = instance ? new instance.ox.Store() : new oxigraph.Store();
  }
  const headroom = instance
    ? new WasmHeadroom((bytes) => growInstanceMemory(bytes, instance.wasm), typeof memory === 'object' ? memory.room : 0)
    : wasmHeadroom;
  return { memory: { store, instance, headroom }, quads, dead };
}

/** The size of one WebAssembly memory a store has to itself. */
export interface MemorySize {
  instance: 'main' | 'activity-log';
  bytes: number;
}

/** The sizes of a store's own memory (main) and its activity log's apart, each when it has one. */
export function memorySizes(own: OxigraphInstance | undefined, apart: OxigraphInstance | undefined): MemorySize[] {
  const sizes: MemorySize[] = [];
  if (own) sizes.push({ instance: 'main', bytes: own.wasm.memory.buffer.byteLength });
  if (apart) sizes.push({ instance: 'activity-log', bytes: apart.wasm.memory.buffer.byteLength });
  return sizes;
}

/** The image of a store whose activity log is apart: version 3, which a build without the pair refuses (memory-image.ts). */
export function pairedImage(image: MemoryImage): MemoryImage {
  return { ...image, header: { ...image.header, version: 3 } };
}
