import { expect } from 'chai';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import oxigraph from 'oxigraph';
import { createLogger } from '../../../../../src/core/logger.js';
import { QueryBank } from '../../../../../src/core/queries/query-bank.js';
import { GRAPHS } from '../../../../../src/core/rdf/namespaces.js';
import {
  apartImageFileName,
  IMAGE_MAGIC,
  imageFileName,
  nonZeroRuns,
  readImageHeader,
} from '../../../../../src/adapters/oxigraph/wasm/memory-image.js';
import { restoreImage, restoreImageFile } from '../../../../../src/adapters/oxigraph/wasm/image-restore.js';
import type { OxigraphStore } from '../../../../../src/adapters/oxigraph/oxigraph-store.js';
import type { Change } from '../../../../../src/core/ports/quad-store.js';
import { openEmbeddedStore, recoverEmbeddedStore } from '../../../../../src/adapters/oxigraph/recovery/recovery.js';
import { snapshotFileName } from '../../../../../src/adapters/oxigraph/recovery/snapshot-files.js';
import { Snapshotter } from '../../../../../src/adapters/oxigraph/recovery/snapshot.js';
import { canonical } from '../../../../helpers/canonical-store.js';

const logger = createLogger('silent');
/** Quads the store holds, counted, its activity log's apart too. */
const held = (store: OxigraphStore): number => store.store.size + (store.apart?.store.size ?? 0);
const queries = new QueryBank();
const M = GRAPHS.metadata;

/** A data graph with blank nodes and a language-tagged literal, plus its metadata. */
function publish(graph: string, n: number): Change {
  return {
    ops: [
      {
        op: 'insert',
        nquads: `<${graph}#root> <urn:p:party> _:p${n} <${graph}> .\n_:p${n} <urn:p:name> "party ${n}"@en <${graph}> .\n_:p${n} <urn:p:size> "${n}"^^<http://www.w3.org/2001/XMLSchema#integer> <${graph}> .\n`,
      },
      { op: 'insert', nquads: `<${graph}> <urn:p:seq> "${n}"^^<http://www.w3.org/2001/XMLSchema#integer> <${M}> .\n` },
      // Its activity-log entry, which the store keeps apart and images with the rest.
      { op: 'insert', nquads: `<urn:uuid:activity-${n}> <urn:p:entry> "{\\"published\\":\\"${graph}\\"}" <${GRAPHS.activityLog}> .\n` },
    ],
  };
}

function replace(graph: string, n: number): Change {
  return {
    ops: [
      { op: 'dropGraph', graph },
      { op: 'insert', nquads: `<${graph}#root> <urn:p:party> _:r${n} <${graph}> .\n_:r${n} <urn:p:name> "replaced ${n}" <${graph}> .\n` },
      { op: 'deleteMatching', subject: `<${graph}>`, predicate: '<urn:p:seq>', object: null, graph: M },
    ],
  };
}

describe('store: memory images', function () {
  // ~5 s on a quiet machine; the shared 2-core box has run it 10x slower.
  this.timeout(90_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-image-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A store with an image at generation 1 and changes after it; returns its canonical content. */
  async function storeWithImage(): Promise<string[]> {
    const { store } = openEmbeddedStore(dir, false, logger, { images: true });
    for (let i = 0; i < 300; i++) await (await store.commit(publish(`urn:uuid:g${i}`, i))).durable;
    const taken = await new Snapshotter(store, queries, { dir, fsync: false, logBytesThreshold: 1 << 30, logger, images: true }).take();
    // The store's image and its activity log's, taken together.
    expect(taken!.image!.bytes).to.equal(statSync(join(dir, imageFileName(1))).size + statSync(join(dir, apartImageFileName(1))).size);
    // Version 3: a build that does not know the pair refuses the store's image and loads the N-Quads.
    const fd = openSync(join(dir, imageFileName(1)), 'r');
    expect(readImageHeader(fd).header.version).to.equal(3);
    closeSync(fd);
    for (let i = 0; i < 20; i++)
      await (
        await store.commit(i % 2 ? replace(`urn:uuid:g${i}`, i) : publish(`urn:uuid:after${i}`, i))
      ).durable;
    const expected = canonical(store);
    await store.close();
    return expected;
  }

  it('restores the store from its image, replays the log after it, and the restored store goes on working', async () => {
    const expected = await storeWithImage();
    const { store, report } = openEmbeddedStore(dir, false, logger, { images: true });
    expect(report).to.include({ imageGeneration: 1, snapshotGeneration: 1, changes: 20 });
    expect(canonical(store)).to.deep.equal(expected);
    expect(await store.size()).to.equal(expected.length);
    // Term objects from the package's own instance (interned property names restored), queries, deletes.
    expect(store.store.match(oxigraph.namedNode('urn:uuid:g0#root'), null, null, null)).to.have.length(1);
    const rows = await store.select('SELECT ?n WHERE { GRAPH ?g { ?p <urn:p:name> ?n FILTER(lang(?n) = "en") } }');
    expect(rows).to.have.length(300 - 10 + 10); // 10 graphs replaced without a language tag, 10 published after the image
    await (
      await store.commit(replace('urn:uuid:g100', 9999))
    ).durable;
    await (
      await store.commit(publish('urn:uuid:late', 7))
    ).durable;
    // An image of a restored store restores too.
    const again = await new Snapshotter(store, queries, { dir, fsync: false, logBytesThreshold: 1 << 30, logger, images: true }).take();
    expect(again!.image).to.not.equal(undefined);
    const content = canonical(store);
    await store.close();
    expect(readdirSync(dir).sort()).to.deep.equal([apartImageFileName(2), 'changes-00000002.log', imageFileName(2), snapshotFileName(2)]);
    const third = openEmbeddedStore(dir, false, logger, { images: true });
    expect(third.report).to.include({ imageGeneration: 2, changes: 0 });
    expect(canonical(third.store)).to.deep.equal(content);
    await third.store.close();
  });

  const damages: { name: string; reason: RegExp; damage: (path: string) => void }[] = [
    { name: 'a torn image (cut short)', reason: /torn/, damage: (path) => truncateSync(path, Math.floor(statSync(path).size / 2)) },
    {
      name: 'an image from another Oxigraph build (another .wasm hash)',
      reason: /another Oxigraph build/,
      damage: (path) => {
        const bytes = readFileSync(path);
        const at = bytes.indexOf('"wasmHash":"') + '"wasmHash":"'.length;
        bytes.write(bytes[at] === 0x30 ? '1' : '0', at);
        writeFileSync(path, bytes);
      },
    },
    {
      name: 'an image whose memory has a flipped byte',
      reason: /CRC/,
      damage: (path) => {
        const fd = openSync(path, 'r+');
        writeSync(fd, Buffer.from([0x5a]), 0, 1, Math.floor(statSync(path).size * 0.6));
        closeSync(fd);
      },
    },
    { name: 'not an image', reason: /magic/, damage: (path) => writeFileSync(path, Buffer.concat([Buffer.from('junk'), IMAGE_MAGIC])) },
  ];
  // A tool's open reads the image at once; a node's start (recoverEmbeddedStore) reads it in pieces read together.
  const opens = [
    ['read at once', async () => openEmbeddedStore(dir, false, logger, { images: true })],
    ['read in pieces at a start', () => recoverEmbeddedStore(dir, false, logger, { images: true })],
  ] as const;
  // Either image of the pair: the store's, or its activity log's (kept apart in an instance of its own).
  const images = [
    ['', imageFileName],
    [' of the activity log', apartImageFileName],
  ] as const;
  const cases = [
    ...damages.flatMap((d) => images.map(([whose, file]) => ({ ...d, name: `${d.name}${whose}`, file }))),
    {
      name: 'no image of the activity log beside it',
      reason: /activity log's image .* is missing/,
      file: apartImageFileName,
      damage: (path: string) => rmSync(path),
    },
  ];
  for (const { name, reason, damage, file } of cases) {
    for (const [how, open] of opens) {
      it(`falls back to the N-Quads snapshot and the log, losing nothing, from ${name} (${how})`, async () => {
        const expected = await storeWithImage();
        damage(join(dir, file(1)));
        const { store, report } = await open();
        expect(report.imageGeneration).to.equal(undefined);
        expect(report.imageRejected).to.match(reason);
        expect(report).to.include({ snapshotGeneration: 1, changes: 20 });
        expect(canonical(store)).to.deep.equal(expected);
        await store.close();
      });
    }
  }

  it('restores at a start what it restores at once, its pieces read four at a time and checked in order', async () => {
    const expected = await storeWithImage();
    const { store, report } = await recoverEmbeddedStore(dir, false, logger, { images: true });
    expect(report).to.include({ imageGeneration: 1, snapshotGeneration: 1, changes: 20 });
    expect(canonical(store)).to.deep.equal(expected);
    await store.close();
    // Pieces of one 64 KiB page: many reads in flight, their CRC taken in order.
    const path = join(dir, imageFileName(1));
    const [atOnce, inPieces] = [restoreImage(path), await restoreImageFile(path, 65_536)];
    expect(inPieces.header).to.deep.equal(atOnce.header);
    const memory = (r: typeof atOnce) => new Uint8Array(r.instance.wasm.memory.buffer);
    expect(Buffer.compare(memory(inPieces), memory(atOnce))).to.equal(0);
    expect(inPieces.store.size).to.equal(atOnce.store.size);
  });

  it('takes an image alone between snapshots once the log passes its share, keeps the logs for the N-Quads fallback, and still snapshots on the whole log since the last snapshot', async () => {
    await storeWithImage();
    const { store } = openEmbeddedStore(dir, false, logger, { images: true });
    // An image alone once the current log passes 10 KiB (the share of the image is made negligible);
    // a snapshot once 40 KiB of log have been written since the last one.
    const options = { dir, fsync: false, logBytesThreshold: 40_960, logger, images: true, imageLogBytes: 10_240, imageLogShare: 1e9 };
    const snapshotter = new Snapshotter(store, queries, options);
    const before = statSync(join(dir, 'changes-00000001.log')).size;
    await (
      await store.commit(publish('urn:uuid:small', 1))
    ).durable;
    snapshotter.committed();
    await snapshotter.idle();
    expect(before + 600, 'the first commit stays under the image threshold').to.be.below(10_240);
    expect(snapshotter.checkpoints).to.have.length(0);
    const big = (n: number): Change => ({
      ops: [{ op: 'insert', nquads: `<urn:uuid:big${n}> <urn:p:text> "${'x'.repeat(9000)}" <urn:uuid:big${n}> .\n` }],
    });
    // The same quads again: the store's estimate now counts them twice, and the image alone carries the estimate.
    await (
      await store.commit(publish('urn:uuid:small', 1))
    ).durable;
    expect(await store.size()).to.be.above(held(store));
    await (
      await store.commit(big(1))
    ).durable;
    snapshotter.committed();
    await snapshotter.idle();
    expect(snapshotter.checkpoints.map((c) => c.generation)).to.deep.equal([2]);
    expect(snapshotter.history).to.have.length(0);
    await (
      await store.commit(replace('urn:uuid:g5', 5))
    ).durable;
    const expected = canonical(store);
    await store.close();
    // The older image is gone; the snapshot and every log since it stay.
    expect(readdirSync(dir).sort()).to.deep.equal([
      apartImageFileName(2),
      'changes-00000001.log',
      'changes-00000002.log',
      imageFileName(2),
      snapshotFileName(1),
    ]);
    const restored = openEmbeddedStore(dir, false, logger, { images: true });
    expect(restored.report).to.include({ imageGeneration: 2, snapshotGeneration: 2, logs: 1, changes: 1 });
    expect(canonical(restored.store)).to.deep.equal(expected);
    // The restore takes the image's estimate without counting every quad (still over by the quads
    // inserted twice) and the replay keeps it up; the next snapshot counts them.
    expect(await restored.store.size()).to.be.above(held(restored.store));
    // Restarted, the snapshotter counts the logs since the snapshot (both): 40 KiB in all start a
    // snapshot, however often images rotated the log in between.
    const next = new Snapshotter(restored.store, queries, options);
    for (let i = 2; i < 8 && next.history.length === 0; i++) {
      await (
        await restored.store.commit(big(i))
      ).durable;
      next.committed();
      await next.idle();
    }
    await next.stop();
    expect(next.history, 'a snapshot was taken').to.have.length(1);
    expect(await restored.store.size(), 'the snapshot corrected the estimate').to.equal(held(restored.store));
    expect(next.checkpoints.length).to.be.within(1, 4);
    const content = canonical(restored.store);
    await restored.store.close();
    // A snapshot, the store's image and its activity log's.
    expect(readdirSync(dir).filter((f) => f.startsWith('snapshot-') || f.endsWith('.wimg'))).to.have.length(3);
    // Every way back has everything: the newest image, and the N-Quads with the logs.
    for (const images of [true, false]) {
      const again = openEmbeddedStore(dir, false, logger, { images });
      expect(canonical(again.store)).to.deep.equal(content);
      await again.store.close();
    }
  });

  it('starts a restored store with the room its image had, so its first writes do not grow the memory', async () => {
    await storeWithImage();
    const { store } = openEmbeddedStore(dir, false, logger, { images: true });
    const memory = store.instance!.wasm.memory;
    const bytes = memory.buffer.byteLength;
    // The store grew ahead 32 MB at least when its first quads came, and used little of it.
    expect(bytes - store.store.size * 400).to.be.above(16 * 1024 * 1024);
    for (let i = 0; i < 50; i++) await (await store.commit(publish(`urn:uuid:restart${i}`, i))).durable;
    expect(memory.buffer.byteLength, 'memory after 50 commits on the restored store').to.equal(bytes);
    await store.close();
  });

  it("leaves the memory's zero pages out of the file and gives them back as zeros", async () => {
    const memory = new Uint8Array(6 * 65536);
    memory[65536 + 5] = 1;
    memory[2 * 65536] = 2;
    memory[5 * 65536 + 65535] = 3;
    expect(nonZeroRuns(memory)).to.deep.equal([
      [1, 2],
      [5, 1],
    ]);
    expect(nonZeroRuns(new Uint8Array(65536))).to.deep.equal([]);
    await storeWithImage();
    const path = join(dir, imageFileName(1));
    const header = JSON.parse(
      readFileSync(path)
        .subarray(IMAGE_MAGIC.length + 4, IMAGE_MAGIC.length + 4 + readFileSync(path).readUInt32LE(IMAGE_MAGIC.length))
        .toString(),
    ) as { runs: [number, number][]; memoryBytes: number };
    const stored = header.runs.reduce((n, [, count]) => n + count * 65536, 0);
    expect(stored).to.be.below(header.memoryBytes);
    expect(statSync(path).size).to.be.below(header.memoryBytes);
  });

  it('writes no image and ignores images when they are off', async () => {
    const expected = await storeWithImage();
    const { store, report } = openEmbeddedStore(dir, false, logger, { images: false });
    expect(report.imageGeneration).to.equal(undefined);
    expect(canonical(store)).to.deep.equal(expected);
    await (
      await store.commit(publish('urn:uuid:off', 1))
    ).durable;
    await new Snapshotter(store, queries, { dir, fsync: false, logBytesThreshold: 1 << 30, logger, images: false }).take();
    await store.close();
    expect(readdirSync(dir).filter((f) => f.endsWith('.wimg'))).to.deep.equal([]);
  });
});
