import { expect } from 'chai';
import { copyFileSync, mkdtempSync, openSync, readFileSync, closeSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../../../src/core/logger.js';
import { QueryBank } from '../../../../../src/core/queries/query-bank.js';
import { GRAPHS, svc } from '../../../../../src/core/rdf/namespaces.js';
import { engineImageFileName, engineImageGenerations } from '../../../../../src/adapters/oxigraph/recovery/engine-image.js';
import type { OxigraphStore } from '../../../../../src/adapters/oxigraph/oxigraph-store.js';
import type { Change } from '../../../../../src/core/ports/quad-store.js';
import { openEmbeddedStore } from '../../../../../src/adapters/oxigraph/recovery/recovery.js';
import { Snapshotter } from '../../../../../src/adapters/oxigraph/recovery/snapshot.js';
import { oxigraphWasmHash } from '../../../../../src/adapters/oxigraph/wasm/oxigraph-instance.js';
import { EngineCopy } from '../../../../../src/adapters/sparql-endpoint/engine/engine-copy.js';

const logger = createLogger('silent');
const queries = new QueryBank();
const M = GRAPHS.metadata;
const graphOf = (n: number) => `urn:uuid:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A data graph with a blank node, its metadata (one predicate the catalog keeps, one it drops). */
function publish(n: number): Change {
  const graph = graphOf(n);
  return {
    ops: [
      { op: 'insert', nquads: `<${graph}#root> <urn:p:party> _:p${n} <${graph}> .\n_:p${n} <urn:p:name> "party ${n}" <${graph}> .\n` },
      {
        op: 'insert',
        nquads: `<${graph}> <${svc('kind')}> <${svc('ConsignmentState')}> <${M}> .\n<${graph}> <urn:p:seq> "${n}" <${M}> .\n`,
      },
    ],
  };
}

/** Graph n dropped and written again with one quad. */
function rewrite(n: number): Change {
  const graph = graphOf(n);
  return {
    ops: [
      { op: 'dropGraph', graph },
      { op: 'insert', nquads: `<${graph}#root> <urn:p:name> "rewritten ${n}" <${graph}> .\n` },
    ],
  };
}

/** The data graphs' names and every data quad as text, through the copy's stores. */
function content(copy: EngineCopy): { graphs: string[]; quads: string[] } {
  const inner = copy as unknown as { data: OxigraphStore; catalog: OxigraphStore; dataGraphs: Set<string> };
  const dump = (store: OxigraphStore) =>
    store.store
      .match(null, null, null, null)
      .map(
        (q) =>
          `${q.subject.termType === 'BlankNode' ? '_' : q.subject.value} ${q.predicate.value} ${q.object.termType === 'BlankNode' ? '_' : q.object.value} ${q.graph.value}`,
      )
      .sort();
  return { graphs: [...inner.dataGraphs].sort(), quads: [...dump(inner.data), '--', ...dump(inner.catalog)] };
}

/**
 * An engine copy saved as an engine image at a log rotation and restored by another (issue 18): it
 * holds what a copy read from the N-Quads snapshot and the same logs holds; any doubt about the image
 * falls back to the snapshot, with the reason.
 */
describe('SPARQL engine copy: engine images', function () {
  this.timeout(60_000);
  let dir: string;
  let imageGeneration: number;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engine-image-'));
    const { store } = openEmbeddedStore(dir, false, logger);
    for (let i = 0; i < 10; i++) await (await store.commit(publish(i))).durable;
    await new Snapshotter(store, queries, { dir, fsync: false, logBytesThreshold: 1 << 30, logger }).take();
    for (let i = 10; i < 15; i++) await (await store.commit(publish(i))).durable;
    await (
      await store.commit(rewrite(3))
    ).durable;
    // The copy that saves the image holds exactly the changes before the rotation.
    const saver = new EngineCopy(queries);
    saver.recover(dir, logger);
    imageGeneration = store.log!.rotate();
    await store.log!.flush();
    const written = await saver.saveImage(dir, imageGeneration, false);
    expect(written.generation).to.equal(imageGeneration);
    // Changes after the image, in its log.
    for (let i = 15; i < 20; i++) await (await store.commit(publish(i))).durable;
    await (
      await store.commit(rewrite(16))
    ).durable;
    await store.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function fromSnapshot(): EngineCopy {
    const copy = new EngineCopy(queries);
    copy.recover(dir, logger);
    expect(copy.recovered.from).to.equal('snapshot');
    return copy;
  }

  it('restores the image and replays the log after it: the same graphs and quads as a copy read from the snapshot', () => {
    const copy = new EngineCopy(queries);
    copy.recover(dir, logger, { images: true });
    expect(copy.recovered, copy.recovered.reason).to.include({ from: 'image', generation: imageGeneration });
    const expected = content(fromSnapshot());
    expect(expected.graphs).to.have.length(20);
    expect(content(copy)).to.deep.equal(expected);
    // The restored copy takes changes and is imaged again.
    copy.follow(publish(20));
    copy.flush();
    expect(content(copy).graphs).to.include(graphOf(20));
  });

  it('counts the removed quads the image carries (they count towards a compaction)', () => {
    const copy = new EngineCopy(queries);
    copy.recover(dir, logger, { images: true });
    // Graph 3 was rewritten before the image: its two quads are dead in the image's memory.
    expect(copy.recovered.imageDead).to.be.greaterThan(0);
    expect(copy.deadQuads).to.be.at.least(copy.recovered.imageDead);
  });

  const doubts: [string, (path: string) => void, RegExp][] = [
    ['a torn image', (path) => truncateSync(path, statSync(path).size - 100), /torn|ends early|shorter/],
    [
      'an image from another Oxigraph build',
      (path) => {
        // The hash is rewritten in place (same length): only the build check can tell.
        const text = readFileSync(path)
          .subarray(0, 64 * 1024)
          .toString('latin1');
        const at = text.indexOf(oxigraphWasmHash()!);
        expect(at).to.be.greaterThan(0);
        const fd = openSync(path, 'r+');
        writeSync(fd, Buffer.from('0'.repeat(64)), 0, 64, at);
        closeSync(fd);
      },
      /another Oxigraph build/,
    ],
    [
      'an image whose memory fails its CRC',
      (path) => {
        const fd = openSync(path, 'r+');
        writeSync(fd, Buffer.from([0x5a, 0xa5, 0x5a, 0xa5]), 0, 4, statSync(path).size - 4096);
        closeSync(fd);
      },
      /CRC/,
    ],
    ['no image', (path) => rmSync(path), /no engine image/],
  ];
  for (const [what, damage, reason] of doubts) {
    it(`falls back to the snapshot, with the reason, on ${what}`, () => {
      damage(join(dir, engineImageFileName(imageGeneration)));
      const copy = new EngineCopy(queries);
      copy.recover(dir, logger, { images: true });
      expect(copy.recovered.from).to.equal('snapshot');
      expect(copy.recovered.reason).to.match(reason);
      expect(content(copy)).to.deep.equal(content(fromSnapshot()));
    });
  }

  it('falls back to the snapshot when a newer snapshot retired the log after the image, and the snapshot prunes engine images', async () => {
    const path = join(dir, engineImageFileName(imageGeneration));
    const kept = `${path}.kept`;
    copyFileSync(path, kept);
    const { store } = openEmbeddedStore(dir, false, logger);
    await new Snapshotter(store, queries, { dir, fsync: false, logBytesThreshold: 1 << 30, logger }).take();
    await store.close();
    expect(engineImageGenerations(dir), 'pruned with the logs it needed').to.deep.equal([]);
    copyFileSync(kept, path);
    const copy = new EngineCopy(queries);
    copy.recover(dir, logger, { images: true });
    expect(copy.recovered.from).to.equal('snapshot');
    expect(copy.recovered.reason).to.match(/is missing/);
    expect(content(copy).graphs).to.have.length(20);
  });

  it('does not write an image older than the one there', async () => {
    const copy = fromSnapshot();
    let refused: Error | undefined;
    await copy.saveImage(dir, imageGeneration - 1, false).catch((error: Error) => {
      refused = error;
    });
    expect(refused?.message).to.match(/or newer is there already/);
  });
});
