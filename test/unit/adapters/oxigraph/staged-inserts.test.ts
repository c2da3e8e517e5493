import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../../src/core/logger.js';
import { GRAPHS } from '../../../../src/core/rdf/namespaces.js';
import type { Change } from '../../../../src/core/ports/quad-store.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import { STAGE_MIN_CHARS } from '../../../../src/adapters/oxigraph/staged-inserts.js';
import { openEmbeddedStore } from '../../../../src/adapters/oxigraph/recovery/recovery.js';
import { Snapshotter } from '../../../../src/adapters/oxigraph/recovery/snapshot.js';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import { canonical } from '../../../helpers/canonical-store.js';

const M = GRAPHS.metadata;
const G = 'urn:uuid:00000000-0000-4000-8000-00000000abcd';
const ITEMS = 800;

/**
 * A large Create as the ingest writes it: a consignment whose items are blank nodes, each with a blank
 * node of its own, linked from the root (so every item's lines share a blank node with a root line); a
 * link in the metadata graph at the end of the same op; the record naming the graph in another op.
 */
function largeCreate(graph = G, tail = ''): Change {
  let data = '';
  for (let i = 0; i < ITEMS; i++) {
    data += `<${graph}#root> <urn:p:item${i}> _:i${i} <${graph}> .\n`;
    data += `_:i${i} <urn:p:text> "Gearbox spare parts, crate ${i}, packed on pallets with foam" <${graph}> .\n`;
    data += `_:i${i} <urn:p:origin> _:c${i} <${graph}> .\n_:c${i} <urn:p:country> "GB" <${graph}> .\n`;
  }
  data += `<urn:c> <urn:p:link> <${graph}> <${M}> .\n${tail}`;
  return {
    ops: [
      { op: 'insert', nquads: data },
      { op: 'insert', nquads: `<${graph}> <urn:p:kind> <urn:k:state> <${M}> .\n<urn:c> <urn:p:status> "new" <${M}> .\n` },
    ],
  };
}

/** The same change applied to memory in one piece per op (as a replay does), for comparison. */
function wholeApplied(change: Change): string[] {
  const store = new OxigraphStore();
  store.apply(change);
  return canonical(store);
}

const named = (store: OxigraphStore): boolean => store.store.match(null, null, null, null).some((q) => q.predicate.value === 'urn:p:kind');
const inGraph = (store: OxigraphStore): number => store.store.match(null, null, null, null).filter((q) => q.graph.value === G).length;

describe('store: a large insert loaded in slices', () => {
  it('takes many turns of the event loop, never shows its graph before the change names it, and ends as one load would', async () => {
    const change = largeCreate();
    expect((change.ops[0] as { nquads: string }).nquads.length).to.be.above(STAGE_MIN_CHARS);
    const store = new OxigraphStore();
    let turns = 0;
    const seen: { named: boolean; quads: number }[] = [];
    let done = false;
    const watch = (): void => {
      if (done) return;
      turns += 1;
      seen.push({ named: named(store), quads: inGraph(store) });
      setImmediate(watch);
    };
    setImmediate(watch);
    const committing = store.commit(change);
    expect(store.committing).to.equal(true);
    await committing;
    done = true;
    expect(store.committing).to.equal(false);
    expect(turns, 'turns of the loop while it committed').to.be.at.least(10);
    // Whenever the graph was named it was whole; while it was not, readers had no way to it.
    for (const s of seen) if (s.named) expect(s.quads).to.equal(ITEMS * 4);
    expect(
      seen.some((s) => !s.named && s.quads > 0 && s.quads < ITEMS * 4),
      'a turn saw it part-loaded, unnamed',
    ).to.equal(true);
    expect(canonical(store)).to.deep.equal(wholeApplied(change));
    expect(
      canonical(store).some((line) => line.includes('undefined')),
      'every blank node hangs from its parent',
    ).to.equal(false);
    expect(await store.size()).to.equal(ITEMS * 4 + 3);
  });

  it('applies nothing when a line of it is bad, even one after slices were loaded', async () => {
    const store = new OxigraphStore();
    await store.commit({ ops: [{ op: 'insert', nquads: `<urn:c> <urn:p:status> "old" <${M}> .\n` }] });
    const before = canonical(store);
    const bad = largeCreate(G, `<urn:c> <urn:p:broken> "no end <${G}> .\n`);
    // The bad line in the graph, at the end: slices before it have loaded when it is found.
    const [data, record] = bad.ops as [{ op: 'insert'; nquads: string }, { op: 'insert'; nquads: string }];
    const ops: Change['ops'] = [{ op: 'insert', nquads: data.nquads.replace(`<urn:c> <urn:p:link> <${G}> <${M}> .\n`, '') }, record];
    let error: unknown;
    await store.commit({ ops }).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error);
    expect(canonical(store)).to.deep.equal(before);
    expect(store.committing).to.equal(false);
  });

  it('applies a commit called while it loads after it, in the order they were called', async () => {
    const store = new OxigraphStore();
    const large = store.commit(largeCreate());
    const order: string[] = [];
    void large.then(() => order.push('large'));
    const small = store.commit({
      ops: [
        { op: 'deleteMatching', subject: '<urn:c>', predicate: '<urn:p:status>', object: null, graph: M },
        { op: 'insert', nquads: `<urn:c> <urn:p:status> "delivered" <${M}> .\n` },
      ],
    });
    void small.then(() => order.push('small'));
    await Promise.all([large, small]);
    expect(order).to.deep.equal(['large', 'small']);
    const statuses = store.store.match(null, null, null, null).filter((q) => q.predicate.value === 'urn:p:status');
    expect(statuses.map((q) => q.object.value)).to.deep.equal(['delivered']);
  });

  it('logs the change whole: a restart reads it back as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dataspace-staged-'));
    try {
      const logger = createLogger('silent');
      const { store } = openEmbeddedStore(dir, false, logger);
      await (
        await store.commit(largeCreate())
      ).durable;
      const expected = canonical(store);
      await store.close();
      const recovered = openEmbeddedStore(dir, false, logger);
      expect(canonical(recovered.store)).to.deep.equal(expected);
      await recovered.store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has a snapshot asked for while it loads rotate the log only once it is committed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dataspace-staged-'));
    try {
      const logger = createLogger('silent');
      const { store } = openEmbeddedStore(dir, false, logger);
      const snapshotter = new Snapshotter(store, new QueryBank(), { dir, fsync: false, logBytesThreshold: 1 << 30, logger });
      const generation = store.log!.generation;
      const committing = store.commit(largeCreate());
      const taking = snapshotter.take();
      expect(store.log!.generation, 'no rotation while part of a change is in memory').to.equal(generation);
      await (
        await committing
      ).durable;
      const taken = await taking;
      expect(store.log!.generation).to.equal(generation + 1);
      expect(taken!.quads, 'the snapshot holds the whole change').to.equal(ITEMS * 4 + 3);
      const expected = canonical(store);
      await snapshotter.stop();
      await store.close();
      const recovered = openEmbeddedStore(dir, false, logger);
      expect(recovered.report.changes).to.equal(0);
      expect(canonical(recovered.store)).to.deep.equal(expected);
      await recovered.store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
