import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type oxigraph from 'oxigraph';
import './js-wasm-calls.js';

/**
 * Oxigraph instances the project owns: the package's wasm-bindgen glue, evaluated once per instance
 * with the WebAssembly instance it creates kept in hand, so a store's linear memory can be saved as an
 * image and a fresh instance restored from it (see memory-image.ts and docs/durability-images.md).
 *
 * Why not `import oxigraph from 'oxigraph'`: the package keeps its instance in a closure and exports
 * no way to reach it. Every store gets an instance of its own, so its memory holds that store and
 * nothing else; terms made by the package's own instance still work with it, because the bindings read
 * a term's `termType` and `value` as JS properties, not by pointer.
 */
export type OxigraphModule = typeof oxigraph;

export interface OxigraphInstance {
  /** The glue's exports: `Store`, `namedNode`, `parse`, … bound to this instance. */
  readonly ox: OxigraphModule;
  /** The raw WebAssembly exports (memory, `__wbindgen_externrefs`, …). */
  readonly wasm: WasmExports;
}

export interface WasmExports {
  readonly memory: WebAssembly.Memory;
  readonly __wbindgen_externrefs: WebAssembly.Table;
  readonly [name: string]: unknown;
}

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('oxigraph/package.json'));

/** The lines of the glue that create its instance; replaced so the project's hook sees the instance. */
const INSTANTIATION = [
  'const wasmPath = `${__dirname}/node_bg.wasm`;',
  "const wasmBytes = require('fs').readFileSync(wasmPath);",
  'const wasmModule = new WebAssembly.Module(wasmBytes);',
  'let wasmInstance = new WebAssembly.Instance(wasmModule, __wbg_get_imports());',
  'let wasm = wasmInstance.exports;',
  'wasm.__wbindgen_start();',
].join('\n');

const REPLACEMENT = [
  'let wasmInstance = new WebAssembly.Instance(__wasmModule, __wbg_get_imports());',
  'let wasm = wasmInstance.exports;',
  'wasm.__wbindgen_start();',
  '__hooks.wasm = wasm;',
].join('\n');

type GlueFactory = (
  exports: object,
  require: NodeRequire,
  dirname: string,
  wasmModule: WebAssembly.Module,
  hooks: { wasm?: WasmExports },
) => void;

interface Glue {
  factory: GlueFactory;
  module: WebAssembly.Module;
  /** SHA-256 of the .wasm bytes: an image is valid only for the exact build it was taken from. */
  wasmHash: string;
}

let glue: Glue | undefined | null;

function loadGlue(): Glue | null {
  if (glue !== undefined) return glue;
  const source = readFileSync(join(packageDir, 'node.js'), 'utf8');
  if (!source.includes(INSTANTIATION)) {
    // Another build of the package lays its glue out differently: images are then unavailable, and
    // stores fall back to the package's own instance (and N-Quads snapshots).
    glue = null;
    return glue;
  }
  const bytes = readFileSync(join(packageDir, 'node_bg.wasm'));
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the package's own glue, read from node_modules
  const factory = new Function(
    'exports',
    'require',
    '__dirname',
    '__wasmModule',
    '__hooks',
    source.replace(INSTANTIATION, REPLACEMENT),
  ) as GlueFactory;
  glue = { factory, module: new WebAssembly.Module(bytes), wasmHash: createHash('sha256').update(bytes).digest('hex') };
  return glue;
}

/** SHA-256 of the Oxigraph .wasm in use, or undefined when its glue cannot be instantiated here. */
export function oxigraphWasmHash(): string | undefined {
  return loadGlue()?.wasmHash ?? undefined;
}

/** A fresh Oxigraph instance with its own linear memory; undefined when the glue is not the expected one. */
export function newOxigraphInstance(): OxigraphInstance | undefined {
  const g = loadGlue();
  if (!g) return undefined;
  const exports = {};
  const hooks: { wasm?: WasmExports } = {};
  g.factory(exports, require, packageDir, g.module, hooks);
  if (!hooks.wasm) return undefined;
  return { ox: exports as OxigraphModule, wasm: hooks.wasm };
}
