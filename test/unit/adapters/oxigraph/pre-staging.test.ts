import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../../src/core/logger.js';
import { GRAPHS } from '../../../../src/core/rdf/namespaces.js';
import type { Change } from '../../../../src/core/ports/quad-store.js';
import type { GraphStaging } from '../../../../src/core/ports/graph-staging.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import { openEmbeddedStore } from '../../../../src/adapters/oxigraph/recovery/recovery.js';
import { Snapshotter } from '../../../../src/adapters/oxigraph/recovery/snapshot.js';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import { canonical } from '../../../helpers/canonical-store.js';

const M = GRAPHS.metadata;
const ITEMS = 800;
let n = 0;

/** A large state graph as a Create writes it: items as blank nodes, each with one of its own; every line in the graph. */
function stateGraph(): { graph: string; nquads: string } {
  const graph = `urn:uuid:00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  let nquads = '';
  for (let i = 0; i < ITEMS; i++) {
    nquads += `<${graph}#root> <urn:p:item> _:s${n}i${i} <${graph}> .\n`;
    nquads += `_:s${n}i${i} <urn:p:text> "Gearbox spare parts, crate ${i}, packed on pallets with foam" <${graph}> .\n`;
    nquads += `_:s${n}i${i} <urn:p:origin> _:s${n}c${i} <${graph}> .\n_:s${n}c${i} <urn:p:country> "GB" <${graph}> .\n`;
  }
  return { graph, nquads };
}

/** The Create's commit as the ingest writes it for a staged graph: drop and insert of the graph, then its record. */
function publishing(graph: string, nquads: string): Change {
  return {
    ops: [
      { op: 'dropGraph', graph },
      { op: 'insert', nquads },
      { op: 'insert', nquads: `<${graph}> <urn:p:kind> <urn:k:state> <${M}> .\n` },
    ],
  };
}

function stageAll(staging: GraphStaging): number {
  let steps = 1;
  while (staging.step()) steps += 1;
  return steps;
}

/** The same change applied by a store that staged nothing (a replay, a follower, the SPARQL engine's copy). */
function wholeApplied(change: Change): string[] {
  const store = new OxigraphStore();
  store.apply(change);
  return canonical(store);
}

const withDir = async (work: (dir: string) => Promise<void>): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'dataspace-prestaged-'));
  try {
    await work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

describe('store: a fresh graph staged ahead of its commit', () => {
  it('loads in many small steps, and its commit publishes it without loading it again', async () => {
    const store = new OxigraphStore();
    const { graph, nquads } = stateGraph();
    const staging = store.stage(graph, nquads)!;
    expect(staging).to.not.equal(undefined);
    expect(stageAll(staging), 'steps').to.be.above(10);
    // Staged, unnamed and marked: no metadata names it yet.
    expect(store.store.match(null, null, null, null).some((q) => q.predicate.value === 'urn:p:kind')).to.equal(false);
    const change = publishing(graph, nquads);
    await store.commit(change);
    staging.drop();
    expect(canonical(store)).to.deep.equal(wholeApplied(change));
    // Only the mark was taken out: the staged quads were neither dropped nor loaded again.
    expect(store.deadQuads).to.equal(1);
  });

  it('drops the staged quads when no commit publishes them (a refusal)', async () => {
    const store = new OxigraphStore();
    await store.commit({ ops: [{ op: 'insert', nquads: `<urn:c> <urn:p:status> "old" <${M}> .\n` }] });
    const before = canonical(store);
    const { graph, nquads } = stateGraph();
    const staging = store.stage(graph, nquads)!;
    stageAll(staging);
    staging.drop();
    expect(canonical(store)).to.deep.equal(before);
  });

  it('stages no short text, no graph that holds quads, and nothing of a text with a line outside its graph', async () => {
    const store = new OxigraphStore();
    const { graph, nquads } = stateGraph();
    expect(store.stage(graph, nquads.slice(0, 2000).replace(/[^\n]*$/, ''))).to.equal(undefined);
    // A line in another graph: the grouping's steps find it, load nothing, and the commit applies the text as written.
    const linked = `${nquads}<urn:c> <urn:p:link> <${graph}> <${M}> .\n`;
    const staging = store.stage(graph, linked)!;
    expect(stageAll(staging)).to.be.at.least(1);
    expect(store.store.size).to.equal(0);
    const change = publishing(graph, linked);
    await store.commit(change);
    staging.drop();
    expect(canonical(store)).to.deep.equal(wholeApplied(change));
    const other = stateGraph();
    await store.commit({ ops: [{ op: 'insert', nquads: `<urn:x> <urn:p:y> "z" <${other.graph}> .\n` }] });
    expect(store.stage(other.graph, other.nquads)).to.equal(undefined);
  });

  it('after a restart, drops a graph a snapshot took while staged, and a published one reads back once', async () => {
    await withDir(async (dir) => {
      const logger = createLogger('silent');
      const { store } = openEmbeddedStore(dir, false, logger);
      const snapshotter = new Snapshotter(store, new QueryBank(), { dir, fsync: false, logBytesThreshold: 1 << 30, logger });
      const published = stateGraph();
      const abandoned = stateGraph();
      const first = store.stage(published.graph, published.nquads)!;
      const second = store.stage(abandoned.graph, abandoned.nquads)!;
      // Half of each staged when the snapshot is taken: it does not wait for them.
      for (let i = 0; i < 5; i++) first.step() && second.step();
      expect(await snapshotter.take(), 'a snapshot taken while graphs are staged').to.not.equal(undefined);
      stageAll(first);
      stageAll(second);
      const change = publishing(published.graph, published.nquads);
      await (
        await store.commit(change)
      ).durable;
      const expected = wholeApplied(change);
      expect(canonical(store).filter((line) => !line.includes(abandoned.graph))).to.deep.equal(expected);
      await snapshotter.stop();
      await store.close();
      // Killed here: the abandoned graph was never committed, the snapshot holds half of it and of the other.
      const recovered = openEmbeddedStore(dir, false, logger);
      expect(recovered.store.dropUnpublished()).to.deep.equal([abandoned.graph]);
      expect(canonical(recovered.store)).to.deep.equal(expected);
      await recovered.store.close();
    });
  });

  it('loads the graph again at its commit when the memory was replaced while it staged (a compaction adopted)', async () => {
    const store = new OxigraphStore();
    const { graph, nquads } = stateGraph();
    const staging = store.stage(graph, nquads)!;
    for (let i = 0; i < 4; i++) staging.step();
    // A compacted copy caught up with every commit, which has none of a staged graph.
    store.adopt(new OxigraphStore());
    stageAll(staging);
    const change = publishing(graph, nquads);
    await store.commit(change);
    staging.drop();
    expect(canonical(store)).to.deep.equal(wholeApplied(change));
  });
});
