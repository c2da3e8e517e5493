import { expect } from 'chai';
import { spawnSync } from 'node:child_process';

/**
 * A Wasm module with one export, `f() -> externref`, that calls its import `env.cb`: the shape of
 * Oxigraph's `quad_subject` and kin, which call back into JS to build the term they return.
 */
const MODULE = [
  '0061736d01000000', // magic, version
  '0105016000016f', // types: () -> externref
  '020a0103656e760263620000', // import env.cb, type 0
  '03020100', // one function of type 0
  '07050101660001', // export "f" = function 1
  '0a0601040010000b', // f: call 0
].join('');

/** Optimises a caller of `f`, then deoptimises it from inside the call: what aborts Node 20's V8. */
function deoptimiseInsideWasmCall(preload: string): ReturnType<typeof spawnSync> {
  const script = `
    await import(${JSON.stringify(preload)});
    let deopt = false;
    const instance = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from('${MODULE}', 'hex')), {
      env: { cb: () => { if (deopt) %DeoptimizeFunction(caller); return { term: 'x' }; } },
    });
    function caller() { return instance.exports.f(); }
    %PrepareFunctionForOptimization(caller);
    caller(); caller();
    %OptimizeFunctionOnNextCall(caller);
    caller();
    deopt = true;
    process.stdout.write(caller().term);
  `;
  return spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('store: JS→Wasm calls are not inlined (a V8 abort on Node 20)', () => {
  it('keeps a process that loaded the store alive through a deoptimisation inside a Wasm call', () => {
    const store = new URL('../../../../../src/adapters/oxigraph/oxigraph-store.js', import.meta.url).href;
    const run = deoptimiseInsideWasmCall(store);
    expect(run.stderr, 'the child aborted').to.not.match(/Fatal error/);
    expect(run.status).to.equal(0);
    expect(run.stdout).to.equal('x');
  });

  it('is needed: without the guard, the V8 of Node 20 aborts on the same calls', function () {
    if (!process.versions.v8.startsWith('11.')) this.skip(); // reason: only Node 20's V8 (11.x) is known to abort
    const run = deoptimiseInsideWasmCall('node:os');
    expect(run.stderr).to.match(/Fatal error[\s\S]*unreachable code/);
    expect(run.status).to.not.equal(0);
  });
});
