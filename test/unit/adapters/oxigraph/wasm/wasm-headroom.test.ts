import { expect } from 'chai';
import oxigraph from 'oxigraph';
import { growInstanceMemory, growWasmMemory, WasmHeadroom } from '../../../../../src/adapters/oxigraph/wasm/wasm-headroom.js';
import { newOxigraphInstance } from '../../../../../src/adapters/oxigraph/wasm/oxigraph-instance.js';

const MB = 1024 * 1024;

describe('store: WebAssembly memory headroom', () => {
  it('makes room the store then fills without growing the memory again', () => {
    growWasmMemory(64 * MB);
    const grown = process.memoryUsage().external;
    const store = new oxigraph.Store();
    const lines = Array.from({ length: 50_000 }, (_, i) => `<urn:s:${i}> <urn:p> "value ${i}" <urn:g:${i % 100}> .`);
    store.load(lines.join('\n'), { format: 'application/n-quads' });
    expect(store.size).to.equal(50_000);
    expect(process.memoryUsage().external).to.be.below(grown + MB);
  });

  it("takes the room from an instance's own allocator writing almost none of it, and the store then fills it", () => {
    const own = newOxigraphInstance()!;
    const before = own.wasm.memory.buffer.byteLength;
    growInstanceMemory(48 * MB, own.wasm);
    const memory = new Uint8Array(own.wasm.memory.buffer);
    const grown = memory.length - before;
    let written = 0;
    for (let i = before; i < memory.length; i++) if (memory[i] !== 0) written++;
    expect(grown).to.be.at.least(48 * MB);
    expect(written).to.be.below(64 * 1024);
    const store = new own.ox.Store();
    const lines = Array.from({ length: 50_000 }, (_, i) => `<urn:s:${i}> <urn:p> "value ${i}" <urn:g:${i % 100}> .`);
    store.load(lines.join('\n'), { format: 'application/n-quads' });
    expect(store.size).to.equal(50_000);
    expect(own.wasm.memory.buffer.byteLength, 'memory after loading into the room').to.equal(memory.length);
  });

  it("writes about a third of the room it makes through a string (the package's shared instance): the rest stays untouched until the store uses it", () => {
    const own = newOxigraphInstance();
    expect(own, 'the oxigraph glue could not be instantiated').to.not.equal(undefined);
    const before = own!.wasm.memory.buffer.byteLength;
    growWasmMemory(48 * MB, own!.ox, own!.wasm.memory);
    const memory = new Uint8Array(own!.wasm.memory.buffer);
    const grown = memory.length - before;
    let written = 0;
    for (let i = before; i < memory.length; i++) if (memory[i] !== 0) written++;
    expect(grown).to.be.at.least(40 * MB);
    expect(written / grown).to.be.within(0.2, 0.4);
  });

  it('starts with the room it is given: no growth until the quads fill it', () => {
    const steps: number[] = [];
    const headroom = new WasmHeadroom((bytes) => steps.push(bytes), 320 * 10_000);
    for (let i = 0; i < 99; i++) headroom.added(100);
    expect(steps).to.deep.equal([]);
    headroom.added(100);
    expect(steps).to.deep.equal([32 * MB]);
  });

  it('grows in a few large steps as quads arrive, a quarter of the store at a time', () => {
    const steps: number[] = [];
    const headroom = new WasmHeadroom((bytes) => steps.push(bytes));
    for (let i = 0; i < 100_000; i++) headroom.added(75);
    // 7.5 M quads at ~320 B each is ~2.3 GB: tens of growths, not one per Create.
    expect(steps.length).to.be.within(10, 40);
    expect(Math.min(...steps)).to.equal(32 * MB);
    expect(Math.max(...steps)).to.equal(256 * MB);
  });

  it('makes room for a snapshot at once, up to 1 GB', () => {
    const steps: number[] = [];
    const headroom = new WasmHeadroom((bytes) => steps.push(bytes));
    headroom.expect(1_000_000);
    headroom.expect(100_000_000);
    expect(steps).to.deep.equal([320_000_000, 1024 * MB]);
    headroom.added(999_999);
    expect(steps).to.have.length(2);
  });
});
