import { expect } from 'chai';
import { InsufficientStorage } from '../../../../src/core/errors.js';
import { CapacityGuard } from '../../../../src/core/store/capacity-guard.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import { GRAPHS } from '../../../../src/core/rdf/namespaces.js';
import { DEFAULT_MAX_QUADS, STORE_BYTES_PER_QUAD } from '../../../../src/store-config.js';
import { WASM_MEMORY_BYTES, WASM_RESERVE_BYTES, wasmMemory } from '../../../../src/adapters/oxigraph/wasm/wasm-memory.js';

const G = 'urn:uuid:00000000-0000-4000-8000-000000000001';
const quads = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `<urn:s:${from + i}> <urn:p> "v" <${G}> .\n`).join('');
const GIB = 1024 ** 3;

async function refusal(commit: Promise<unknown>): Promise<InsufficientStorage> {
  try {
    await commit;
  } catch (error) {
    expect(error).to.be.instanceOf(InsufficientStorage);
    return error as InsufficientStorage;
  }
  throw new Error('the change was taken');
}

describe('store: capacity guard', () => {
  it('takes changes up to the quota and refuses the one that would pass it, storing nothing of it', async () => {
    const inner = new OxigraphStore();
    const guard = new CapacityGuard(inner, 10);
    await guard.commit({ ops: [{ op: 'insert', nquads: quads(8) }] });
    const error = await refusal(guard.commit({ ops: [{ op: 'insert', nquads: quads(3, 8) }] }));
    expect(error.message).to.match(/holds about 8 quads and its quota is 10 \(DATASPACE_MAX_QUADS\)/);
    expect(await inner.size()).to.equal(8);
    // Changes that add nothing (a drop) still pass on a full store.
    await guard.commit({ ops: [{ op: 'dropGraph', graph: G }] });
    expect(await inner.size()).to.equal(0);
  });

  it('counts, with the activity log kept apart, the quads of the main instance only, as the node wires it', async () => {
    const inner = new OxigraphStore(undefined, 'own', 'own');
    const guard = new CapacityGuard(
      inner,
      10,
      wasmMemory(() => inner.largestMemoryBytes),
      () => inner.ownApproximateSize,
    );
    const logged = (n: number, from = 0) =>
      Array.from({ length: n }, (_, i) => `<urn:uuid:a${from + i}> <urn:p> "entry" <${GRAPHS.activityLog}> .\n`).join('');
    await guard.commit({ ops: [{ op: 'insert', nquads: quads(6) + logged(3) }] });
    expect(await inner.size()).to.equal(9);
    // 6 held and 4 added (the activity log's line counted as added, the safe side): within the quota.
    await guard.commit({ ops: [{ op: 'insert', nquads: quads(3, 6) + logged(1, 3) }] });
    const error = await refusal(guard.commit({ ops: [{ op: 'insert', nquads: quads(2, 9) }] }));
    expect(error.message).to.match(/holds about 9 quads and its quota is 10/);
    expect(await inner.size()).to.equal(13);
  });

  it("refuses once the store's memory is within the reserve of the 4 GiB end, whatever the quota says", async () => {
    const inner = new OxigraphStore();
    let memory = WASM_MEMORY_BYTES - WASM_RESERVE_BYTES - 1;
    const guard = new CapacityGuard(
      inner,
      1_000_000,
      wasmMemory(() => memory),
    );
    await guard.commit({ ops: [{ op: 'insert', nquads: quads(2) }] });
    memory = WASM_MEMORY_BYTES - WASM_RESERVE_BYTES + 1;
    const error = await refusal(guard.commit({ ops: [{ op: 'insert', nquads: quads(2, 2) }] }));
    expect(error.message).to.match(/memory has grown to 3\.50 GiB of the 4\.00 GiB/);
    expect(await inner.size()).to.equal(2);
  });

  it('has a default quota of the quads that fit below the reserve at the measured bytes per quad', () => {
    expect(DEFAULT_MAX_QUADS).to.equal(Math.floor((WASM_MEMORY_BYTES - WASM_RESERVE_BYTES) / STORE_BYTES_PER_QUAD));
    expect(DEFAULT_MAX_QUADS * STORE_BYTES_PER_QUAD).to.be.at.most(WASM_MEMORY_BYTES - WASM_RESERVE_BYTES);
    expect(WASM_MEMORY_BYTES).to.equal(4 * GIB);
  });
});
