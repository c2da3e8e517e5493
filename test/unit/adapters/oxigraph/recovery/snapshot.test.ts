import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { createLogger } from '../../../../../src/core/logger.js';
import { QueryBank } from '../../../../../src/core/queries/query-bank.js';
import { GRAPHS } from '../../../../../src/core/rdf/namespaces.js';
import type { Change } from '../../../../../src/core/ports/quad-store.js';
import { openEmbeddedStore, StoreRecoveryError } from '../../../../../src/adapters/oxigraph/recovery/recovery.js';
import { imageFileName } from '../../../../../src/adapters/oxigraph/wasm/memory-image.js';
import { snapshotFileName } from '../../../../../src/adapters/oxigraph/recovery/snapshot-files.js';
import { Snapshotter } from '../../../../../src/adapters/oxigraph/recovery/snapshot.js';
import { canonical } from '../../../../helpers/canonical-store.js';

const logger = createLogger('silent');
const queries = new QueryBank();
const M = GRAPHS.metadata;

/** A data graph with blank nodes, like a published consignment, plus its metadata. */
function publish(graph: string, n: number): Change {
  return {
    ops: [
      {
        op: 'insert',
        nquads: `<${graph}#root> <urn:p:party> _:p${n} <${graph}> .\n_:p${n} <urn:p:name> "party ${n}" <${graph}> .\n_:p${n} <urn:p:address> _:a${n} <${graph}> .\n_:a${n} <urn:p:country> "GB" <${graph}> .\n`,
      },
      {
        op: 'insert',
        nquads: `<${graph}> <urn:p:seq> "${n}"^^<http://www.w3.org/2001/XMLSchema#integer> <${M}> .\n<${graph}> <urn:p:kind> <urn:k:state> <${M}> .\n`,
      },
    ],
  };
}

function replace(graph: string, n: number): Change {
  return {
    ops: [
      { op: 'dropGraph', graph },
      { op: 'insert', nquads: `<${graph}#root> <urn:p:party> _:r${n} <${graph}> .\n_:r${n} <urn:p:name> "replaced ${n}" <${graph}> .\n` },
      { op: 'deleteMatching', subject: `<${graph}>`, predicate: '<urn:p:seq>', object: null, graph: M },
      { op: 'insert', nquads: `<${graph}> <urn:p:seq> "${1000 + n}"^^<http://www.w3.org/2001/XMLSchema#integer> <${M}> .\n` },
    ],
  };
}

describe('store: background snapshots', function () {
  this.timeout(20_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-snapshot-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const images of [false, true]) {
    const how = images ? 'from the memory image, on a thread' : 'walking the live store, copy-on-write';
    it(`captures the state at the rotation while writes go on (${how}), and recovery from the N-Quads gives back exactly the same store`, async () => {
      const { store } = openEmbeddedStore(dir, false, logger, { images });
      for (let i = 0; i < 1500; i++) await (await store.commit(publish(`urn:uuid:g${i}`, i))).durable;
      const snapshotter = new Snapshotter(store, queries, { dir, fsync: false, logBytesThreshold: 1 << 30, logger, images });
      let rotated = false;
      snapshotter.onRotation(() => {
        rotated = true;
      });
      const taking = snapshotter.take();
      // With images, the rotation waits for the buffer the image is copied into (made on a thread):
      // the snapshot is the state at the rotation, so the writes to race it start there.
      while (!rotated) await tick();
      let writes = 0;
      let finished = false;
      void taking.then(() => {
        finished = true;
      });
      // Rewrite graphs the walk has not reached yet, graphs it has, and add new ones, while it runs.
      while (!finished) {
        const i = (writes * 7919) % 1500;
        await (
          await store.commit(writes % 3 === 0 ? publish(`urn:uuid:new${writes}`, 5000 + writes) : replace(`urn:uuid:g${i}`, writes))
        ).durable;
        writes += 1;
        await tick();
      }
      const result = await taking;
      expect(result).to.not.equal(undefined);
      expect(result!.quads, 'quads counted by the walk').to.equal(1500 * 6);
      expect(result!.image !== undefined, 'an image written with the snapshot').to.equal(images);
      expect(writes, 'writes made while the snapshot was written').to.be.above(3);
      expect(readdirSync(dir).filter((f) => f.startsWith('changes-'))).to.deep.equal(['changes-00000001.log']);
      expect(readdirSync(dir)).to.include(snapshotFileName(1));
      const expected = canonical(store);
      await store.close();

      // The N-Quads snapshot alone (images off at the restart) plus the log is the whole store.
      const recovered = openEmbeddedStore(dir, false, logger);
      expect(recovered.report.snapshotGeneration).to.equal(1);
      expect(recovered.report.changes).to.equal(writes);
      expect(canonical(recovered.store)).to.deep.equal(expected);
      expect(await recovered.store.size()).to.equal(expected.length);
      await recovered.store.close();
    });
  }

  it('walks the live store when the image a snapshot is made from cannot be written, losing nothing', async () => {
    const { store } = openEmbeddedStore(dir, false, logger, { images: true });
    for (let i = 0; i < 50; i++) await (await store.commit(publish(`urn:uuid:g${i}`, i))).durable;
    const snapshotter = new Snapshotter(store, queries, { dir, fsync: false, logBytesThreshold: 1 << 30, logger, images: true });
    // A directory where the image's temporary file goes: the image write fails as on a refusing disk.
    mkdirSync(join(dir, `${imageFileName(1)}.tmp`));
    expect(await snapshotter.take(), 'the snapshot made from an image that was not written').to.equal(undefined);
    expect(readdirSync(dir).filter((f) => f.startsWith('snapshot-'))).to.deep.equal([]);
    await (
      await store.commit(publish('urn:uuid:after', 99))
    ).durable;
    const second = await snapshotter.take();
    expect(second, 'the next snapshot, walking the live store').to.not.equal(undefined);
    expect(second!.image).to.equal(undefined);
    expect(second!.quads).to.equal(51 * 6);
    const expected = canonical(store);
    await store.close();
    rmSync(join(dir, `${imageFileName(1)}.tmp`), { recursive: true });
    const recovered = openEmbeddedStore(dir, false, logger);
    expect(recovered.report.snapshotGeneration).to.equal(2);
    expect(canonical(recovered.store)).to.deep.equal(expected);
    await recovered.store.close();
  });

  it('starts from the newest snapshot and retires the logs and snapshots it covers', async () => {
    const { store } = openEmbeddedStore(dir, false, logger);
    const snapshotter = new Snapshotter(store, queries, { dir, fsync: false, logBytesThreshold: 1 << 30, logger });
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 20; i++) await (await store.commit(publish(`urn:uuid:r${round}-${i}`, i))).durable;
      await snapshotter.take();
    }
    await (
      await store.commit(replace('urn:uuid:r0-0', 1))
    ).durable;
    expect(readdirSync(dir).sort()).to.deep.equal(['changes-00000003.log', snapshotFileName(3)]);
    const expected = canonical(store);
    await store.close();
    const recovered = openEmbeddedStore(dir, false, logger);
    expect(recovered.report).to.include({ snapshotGeneration: 3, logs: 1, changes: 1 });
    expect(canonical(recovered.store)).to.deep.equal(expected);
    await recovered.store.close();
  });

  it('waits for a log of a quarter of the newest snapshot once that is more than the configured threshold, after a restart too', async () => {
    const { store } = openEmbeddedStore(dir, false, logger);
    const snapshotter = new Snapshotter(store, queries, { dir, fsync: false, logBytesThreshold: 4096, logger });
    expect(snapshotter.threshold()).to.equal(4096);
    for (let i = 0; i < 200; i++) await (await store.commit(publish(`urn:uuid:q${i}`, i))).durable;
    const taken = await snapshotter.take();
    expect(taken!.bytes).to.be.above(4 * 4096);
    expect(snapshotter.threshold()).to.equal(Math.floor(taken!.bytes / 4));
    await store.close();
    const reopened = openEmbeddedStore(dir, false, logger);
    expect(new Snapshotter(reopened.store, queries, { dir, fsync: false, logBytesThreshold: 4096, logger }).threshold()).to.equal(
      Math.floor(statSync(join(dir, snapshotFileName(taken!.generation))).size / 4),
    );
    await reopened.store.close();
  });

  it('follows commits: starts a snapshot once a commit takes the log past the threshold, and none once stopped', async () => {
    const { store } = openEmbeddedStore(dir, false, logger);
    const snapshotter = new Snapshotter(store, queries, { dir, fsync: false, logBytesThreshold: 4096, logger });
    let i = 0;
    while (store.log!.size < 4096) {
      await (
        await store.commit(publish(`urn:uuid:f${i}`, i))
      ).durable;
      if (store.log!.size < 4096) snapshotter.committed();
      i += 1;
    }
    const generation = store.log!.generation;
    expect(snapshotter.history, 'nothing below the threshold').to.have.length(0);
    snapshotter.committed();
    // A snapshot rotates the log as it starts, in the same turn.
    expect(store.log!.generation).to.equal(generation + 1);
    const taken = await snapshotter.take();
    expect(taken?.quads).to.equal(i * 6);
    expect(snapshotter.history).to.have.length(1);
    await snapshotter.stop();
    for (let j = 0; j < 200; j++) await (await store.commit(publish(`urn:uuid:s${j}`, j))).durable;
    expect(store.log!.size, 'the log is past the threshold again').to.be.at.least(snapshotter.threshold());
    snapshotter.committed();
    expect(store.log!.generation, 'no snapshot after stop').to.equal(generation + 1);
    await store.close();
  });

  it('starts the next snapshot as one finishes when commits made meanwhile took the log past the threshold', async () => {
    const { store } = openEmbeddedStore(dir, false, logger);
    const snapshotter = new Snapshotter(store, queries, { dir, fsync: false, logBytesThreshold: 4096, logger });
    const generation = store.log!.generation;
    const first = snapshotter.take();
    // Committed in the same turn, so all of them while the first snapshot runs: it is running, so no follower call starts one.
    const commits = [];
    for (let k = 0; store.log!.size < 8192; k++) {
      commits.push(store.commit(publish(`urn:uuid:w${k}`, k)));
      snapshotter.committed();
    }
    expect(store.log!.generation).to.equal(generation + 1);
    await Promise.all((await Promise.all(commits)).map((c) => c.durable));
    await first;
    expect(store.log!.generation, 'the next snapshot started as the first one finished').to.equal(generation + 2);
    await snapshotter.stop();
    await store.close();
  });

  it("copies triples of blank-node subjects, and of IRIs a query cannot carry, in the node's own graphs and the default graph", async () => {
    const { store } = openEmbeddedStore(dir, false, logger);
    for (let i = 0; i < 5; i++) await (await store.commit(publish(`urn:uuid:b${i}`, i))).durable;
    await (
      await store.commit({ ops: [{ op: 'insert', nquads: `<urn:x:s> <urn:x:p> _:n1 <${M}> .\n_:n1 <urn:x:q> "inner" <${M}> .\n` }] })
    ).durable;
    store.store.load('_:d1 <urn:x:q> "in the default graph" .\n', { format: 'application/n-quads' });
    // A lenient load (as recovery does) keeps an IRI that SPARQL text may not name.
    store.store.load(`<urn:x:a{b}> <urn:x:q> "odd subject" <${M}> .\n`, { format: 'application/n-quads', lenient: true });
    await new Snapshotter(store, queries, { dir, fsync: false, logBytesThreshold: 1 << 30, logger }).take();
    const expected = canonical(store);
    await store.close();
    const recovered = openEmbeddedStore(dir, false, logger);
    expect(canonical(recovered.store)).to.deep.equal(expected);
    expect(expected.some((q) => q.includes('inner'))).to.equal(true);
    expect(expected.some((q) => q.includes('in the default graph'))).to.equal(true);
    expect(expected.some((q) => q.includes('odd subject'))).to.equal(true);
    await recovered.store.close();
  });

  it('refuses to start from a snapshot without its completion trailer', async () => {
    const { store } = openEmbeddedStore(dir, false, logger);
    for (let i = 0; i < 5; i++) await (await store.commit(publish(`urn:uuid:t${i}`, i))).durable;
    await new Snapshotter(store, queries, { dir, fsync: false, logBytesThreshold: 1 << 30, logger }).take();
    await store.close();
    const path = join(dir, snapshotFileName(1));
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.slice(0, text.lastIndexOf('# snapshot complete')));
    expect(() => openEmbeddedStore(dir, false, logger)).to.throw(StoreRecoveryError, /no completion trailer/);
  });

  it('leaves an unfinished snapshot (.tmp) aside and recovers from the logs', async () => {
    const { store } = openEmbeddedStore(dir, false, logger);
    for (let i = 0; i < 5; i++) await (await store.commit(publish(`urn:uuid:u${i}`, i))).durable;
    const expected = canonical(store);
    await store.close();
    writeFileSync(join(dir, `${snapshotFileName(1)}.tmp`), '<urn:a> <urn:b> <urn:c> <urn:g> .\n');
    const recovered = openEmbeddedStore(dir, false, logger);
    expect(canonical(recovered.store)).to.deep.equal(expected);
    expect(readdirSync(dir).some((f) => f.endsWith('.tmp'))).to.equal(false);
    await recovered.store.close();
  });
});
