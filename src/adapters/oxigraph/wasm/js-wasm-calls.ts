import { setFlagsFromString } from 'node:v8';

/**
 * Turns off TurboFan's inlining of JS→Wasm calls for the whole process (V8 flags are per process, so
 * worker threads share it). Importing this module is the whole job.
 *
 * Why: the V8 of Node 20 (11.3) aborts the process ("Fatal error … unreachable code" in
 * `Deoptimizer::DoComputeBuiltinContinuation`, exit 133) when a function that inlined a call to a
 * Wasm export returning `externref` is deoptimised while that call is on the stack. Oxigraph's
 * wasm-bindgen glue has such exports (`quad_subject`, `quad_object`, `asyncparseriterator_next`, …)
 * and calls back into JS from inside them, so any busy node could die at random; the test suite did
 * once, in CI. The flag is read when a function is optimised, so setting it before the first store
 * is used is enough. Its cost is in bench/results/2026-12-08-js-wasm-inlining.md.
 */
setFlagsFromString('--no-turbo-inline-js-wasm-calls');
