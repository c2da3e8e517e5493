import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { createLogger, type Logger } from '../../../../../src/core/logger.js';
import { QueryBank } from '../../../../../src/core/queries/query-bank.js';
import { GRAPHS } from '../../../../../src/core/rdf/namespaces.js';
import { buildImageInThread, Compactor, type ImageBuilder } from '../../../../../src/adapters/oxigraph/recovery/compaction.js';
import { compactionDue } from '../../../../../src/adapters/oxigraph/recovery/compaction-policy.js';
import { nonZeroRuns } from '../../../../../src/adapters/oxigraph/wasm/memory-image.js';
import { OxigraphStore } from '../../../../../src/adapters/oxigraph/oxigraph-store.js';
import type { Change } from '../../../../../src/core/ports/quad-store.js';
import { openEmbeddedStore } from '../../../../../src/adapters/oxigraph/recovery/recovery.js';
import { Snapshotter } from '../../../../../src/adapters/oxigraph/recovery/snapshot.js';
import { canonical } from '../../../../helpers/canonical-store.js';
import { nth } from '../../../../helpers/present.js';

const silent = createLogger('silent');
const queries = new QueryBank();
const M = GRAPHS.metadata;
const GRAPHS_HELD = 100;
const QUADS_A_GRAPH = 20;
/** A long literal, so the memory removed quads hold is plain to see. */
const PAD = 'x'.repeat(200);

/** One data graph's quads in `round` (each round's values differ, so nothing is reused) and its metadata. */
function graphQuads(g: number, round: number): string {
  let text = `<urn:uuid:g${g}> <urn:p:round> "${round}" <${M}> .\n`;
  for (let i = 0; i < QUADS_A_GRAPH; i++) text += `<urn:uuid:g${g}#s${i}> <urn:p:v> "r${round} ${i} ${PAD}" <urn:uuid:g${g}> .\n`;
  text += `<urn:uuid:g${g}#s0> <urn:p:party> _:b${g}r${round} <urn:uuid:g${g}> .\n_:b${g}r${round} <urn:p:name> "party ${round}" <urn:uuid:g${g}> .\n`;
  return text;
}

/** Replaces every graph's content with the values of `round` in one change, as Updates do. */
function replaceAll(round: number, graphs = GRAPHS_HELD): Change {
  const ops: Change['ops'] = [];
  for (let g = 0; g < graphs; g++) {
    ops.push({ op: 'dropGraph', graph: `urn:uuid:g${g}` });
    ops.push({ op: 'deleteMatching', subject: `<urn:uuid:g${g}>`, predicate: '<urn:p:round>', object: null, graph: M });
    ops.push({ op: 'insert', nquads: graphQuads(g, round) });
  }
  return { ops };
}

/** One graph replaced, or a new one, for writes made while a compaction runs. */
function oneWrite(n: number): Change {
  // A new graph comes with an activity-log line in the same insert: the store keeps that graph apart, and compacts only the rest.
  if (n % 3 === 0)
    return {
      ops: [
        { op: 'insert', nquads: `${graphQuads(1000 + n, n)}<urn:uuid:activity-${n}> <urn:p:entry> "${n}" <${GRAPHS.activityLog}> .\n` },
      ],
    };
  const g = (n * 37) % GRAPHS_HELD;
  return {
    ops: [
      { op: 'dropGraph', graph: `urn:uuid:g${g}` },
      { op: 'deleteMatching', subject: `<urn:uuid:g${g}>`, predicate: null, object: null, graph: M },
      { op: 'insert', nquads: graphQuads(g, 100 + n) },
    ],
  };
}

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    info: () => {},
    error: () => {},
    warn: (message: string) => {
      warnings.push(message);
    },
  };
}

/**
 * WebAssembly memory the store has written (its pages that are not all zeros), what RSS holds of it:
 * the memory's size says less, as a bulk load reserves ~170 MB it never writes (docs/memory-compaction.md).
 */
const memoryBytes = (store: OxigraphStore): number =>
  nonZeroRuns(new Uint8Array(store.instance!.wasm.memory.buffer)).reduce((n, [, pages]) => n + pages * 65536, 0);

describe('store: compaction of removed quads', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-compact-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A store of GRAPHS_HELD graphs whose values were replaced `rounds` times. */
  async function replacedStore(rounds: number) {
    const { store } = openEmbeddedStore(dir, false, silent, { images: true });
    for (let round = 0; round < rounds; round++) await (await store.commit(replaceAll(round))).durable;
    return store;
  }

  function snapshotter(store: OxigraphStore, compactor: Compactor): Snapshotter {
    return new Snapshotter(store, queries, {
      dir,
      fsync: false,
      logBytesThreshold: 1 << 30,
      logger: silent,
      images: true,
      imageMinQuads: 0,
      compactor,
    });
  }

  it('counts removed quads, compacts at a snapshot into less memory with exactly the same quads, and restarts into the same store', async () => {
    const store = await replacedStore(30);
    const live = GRAPHS_HELD * (QUADS_A_GRAPH + 3);
    expect(await store.size()).to.equal(live);
    expect(store.deadQuads, 'every quad of 29 rounds replaced').to.equal(29 * live);
    const before = canonical(store);
    const memoryBefore = memoryBytes(store);
    const oldInstance = store.instance;
    const compactor = new Compactor(store, { settings: { percent: 50, minDead: 1000 }, logger: silent });
    const taken = await snapshotter(store, compactor).take();
    expect(taken?.image, "the compacted image is saved as the snapshot's").to.not.equal(undefined);

    expect(compactor.history).to.have.length(1);
    expect(store.instance).to.not.equal(oldInstance);
    expect(canonical(store)).to.deep.equal(before);
    expect(store.deadQuads).to.equal(0);
    expect(await store.size()).to.equal(live);
    expect(memoryBytes(store), `${memoryBytes(store)} bytes after, ${memoryBefore} before`).to.be.below(memoryBefore / 2);
    // The compacted memory takes writes like any other, and removes count again.
    await (
      await store.commit(replaceAll(99, 10))
    ).durable;
    expect(store.deadQuads).to.equal(10 * (QUADS_A_GRAPH + 3));
    const expected = canonical(store);
    await store.close();

    const reopened = openEmbeddedStore(dir, false, silent, { images: true });
    expect(reopened.report.imageGeneration, 'restored from the compacted image').to.equal(taken!.generation);
    expect(canonical(reopened.store)).to.deep.equal(expected);
    expect(reopened.store.deadQuads, 'the image says it held none, the log after it removed 230').to.equal(10 * (QUADS_A_GRAPH + 3));
    expect(memoryBytes(reopened.store)).to.be.below(memoryBefore / 2);
    await reopened.store.close();
  });

  it('applies every write made while the compaction runs, then swaps, and the log holds them too', async () => {
    const store = await replacedStore(6);
    const shadow = new OxigraphStore();
    for (let round = 0; round < 6; round++) await shadow.commit(replaceAll(round));
    let building = false;
    let duringBuild = 0;
    const build: ImageBuilder = async (...job) => {
      building = true;
      try {
        return await buildImageInThread(...job);
      } finally {
        building = false;
      }
    };
    // Slices of one batch each: the catch-up takes many ticks, with writes between them.
    const compactor = new Compactor(store, { settings: { percent: 50, minDead: 1000 }, logger: silent, build, sliceMs: 0 });
    const taking = snapshotter(store, compactor).take();
    let finished = false;
    void taking.then(() => {
      finished = true;
    });
    let writes = 0;
    while (!finished) {
      const change = oneWrite(writes);
      await shadow.commit(change);
      await (
        await store.commit(change)
      ).durable;
      if (building) duringBuild += 1;
      writes += 1;
      await tick();
    }
    await taking;
    expect(compactor.history, 'compacted').to.have.length(1);
    expect(duringBuild, 'writes made while the thread loaded the snapshot').to.be.above(0);
    expect(nth(compactor.history, 0).caughtUp, 'changes applied to the fresh memory').to.be.at.least(duringBuild);
    expect(canonical(store)).to.deep.equal(canonical(shadow));
    await (
      await store.commit(oneWrite(writes))
    ).durable;
    await shadow.commit(oneWrite(writes));
    const expected = canonical(store);
    expect(expected).to.deep.equal(canonical(shadow));
    await store.close();
    const reopened = openEmbeddedStore(dir, false, silent, { images: true });
    expect(canonical(reopened.store)).to.deep.equal(expected);
    await reopened.store.close();
  });

  const failures: [string, ImageBuilder][] = [
    [
      'the thread fails',
      async () => {
        throw new Error('the compaction thread died');
      },
    ],
    [
      'the image is corrupt',
      async (...job) => {
        const image = await buildImageInThread(...job);
        const middle = Math.floor(image.memory.length / 2);
        image.memory[middle] = image.memory[middle]! ^ 0xff;
        return image;
      },
    ],
    [
      'the image is of another store',
      async (...job) => {
        const image = await buildImageInThread(...job);
        return { ...image, header: { ...image.header, quads: image.header.quads + 1 } };
      },
    ],
  ];
  for (const [what, build] of failures) {
    it(`keeps the store and loses nothing when ${what}; the next snapshot compacts`, async () => {
      const store = await replacedStore(4);
      const logger = recordingLogger();
      let failing = true;
      const compactor = new Compactor(store, {
        settings: { percent: 50, minDead: 1000 },
        logger,
        build: (...job) => (failing ? build(...job) : buildImageInThread(...job)),
      });
      const snapshots = new Snapshotter(store, queries, {
        dir,
        fsync: false,
        logBytesThreshold: 1 << 30,
        logger,
        images: true,
        imageMinQuads: 0,
        compactor,
      });
      const oldInstance = store.instance;
      const taking = snapshots.take();
      // Written while the compaction is under way: recorded, then dropped with the failed compaction.
      await (
        await store.commit(oneWrite(1))
      ).durable;
      expect(await taking, 'the snapshot itself is written').to.not.equal(undefined);
      expect(logger.warnings).to.include('store compaction failed; the store is kept as it was, and the next snapshot tries again');
      expect(store.instance).to.equal(oldInstance);
      expect(store.recorder.take(), 'nothing recorded once it failed').to.deep.equal([]);
      const expected = canonical(store);
      expect(expected.some((line) => line.includes('"r101 0 '))).to.equal(true);

      failing = false;
      await (
        await store.commit(oneWrite(2))
      ).durable;
      const expectedNow = canonical(store);
      await snapshots.take();
      expect(compactor.history).to.have.length(1);
      expect(store.instance).to.not.equal(oldInstance);
      expect(canonical(store)).to.deep.equal(expectedNow);
      await store.close();
      const reopened = openEmbeddedStore(dir, false, silent, { images: true });
      expect(canonical(reopened.store)).to.deep.equal(expectedNow);
      await reopened.store.close();
    });
  }

  it('stops a compaction under way when the node closes, keeping the store whole', async () => {
    const store = await replacedStore(4);
    let building: () => void = () => {};
    const buildStarted = new Promise<void>((ok) => {
      building = ok;
    });
    const build: ImageBuilder = (...job) => {
      building();
      return buildImageInThread(...job);
    };
    const compactor = new Compactor(store, { settings: { percent: 50, minDead: 1000 }, logger: silent, build });
    const snapshots = snapshotter(store, compactor);
    const oldInstance = store.instance;
    void snapshots.take();
    await buildStarted;
    await (
      await store.commit(oneWrite(1))
    ).durable;
    const expected = canonical(store);
    await snapshots.stop();
    expect(compactor.history).to.have.length(0);
    expect(store.instance).to.equal(oldInstance);
    expect(canonical(store)).to.deep.equal(expected);
    await store.close();
    const reopened = openEmbeddedStore(dir, false, silent, { images: true });
    expect(canonical(reopened.store)).to.deep.equal(expected);
    await reopened.store.close();
  });

  it('is due once the removed quads reach the share of the live ones and the floor; 0 % never', () => {
    const settings = { percent: 50, minDead: 100 };
    const table: [number, number, boolean][] = [
      [99, 10, false],
      [100, 200, true],
      [100, 201, false],
      [5000, 10_000, true],
      [4999, 10_000, false],
    ];
    for (const [dead, live, due] of table) expect(compactionDue(dead, live, settings), `${dead} dead, ${live} live`).to.equal(due);
    expect(compactionDue(10 ** 9, 1, { percent: 0, minDead: 1 })).to.equal(false);
  });
});
