import { expect } from 'chai';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import { RDF_TYPE, unece } from '../../../../src/core/rdf/namespaces.js';
import { NQuadsBuilder } from '../../../../src/core/rdf/nquads.js';
import { DelegatingStore } from '../../../../src/core/store/delegating-store.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import type { Bindings, QueryDataset } from '../../../../src/core/ports/quad-store.js';
import { GraphJson } from '../../../../src/core/views/graph-json.js';

const queries = new QueryBank();
const ROOT = 'urn:uuid:00000000-0000-4000-8000-0000000000a1';
const graphOf = (n: number): string => `urn:uuid:10000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** The real store, counting the graph reads GraphJson makes and running a hook while one is under way. */
class CountingStore extends DelegatingStore {
  reads = 0;
  selects = 0;
  duringRead: (() => void) | undefined;

  override async select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
    this.selects++;
    const rows = await this.inner.select(query, dataset);
    this.duringRead?.();
    return rows;
  }

  override async queryRaw(query: string, dataset: QueryDataset | undefined, format: string): Promise<string> {
    this.reads++;
    const text = await this.inner.queryRaw(query, dataset, format);
    this.duringRead?.();
    return text;
  }
}

async function write(store: OxigraphStore, graph: string, identifier: string): Promise<void> {
  const nquads = new NQuadsBuilder(graph)
    .iri(ROOT, RDF_TYPE, unece('Consignment'))
    .literal(ROOT, unece('identifier'), identifier)
    .toString();
  await (
    await store.commit({
      ops: [
        { op: 'dropGraph', graph },
        { op: 'insert', nquads },
      ],
    })
  ).durable;
}

describe('GraphJson (framed JSON of one data graph, cached)', () => {
  it("frames a graph's root once and answers again from the cache until the graph is invalidated", async () => {
    const inner = new OxigraphStore();
    const store = new CountingStore(inner);
    const cache = new GraphJson(store, queries);
    await write(inner, graphOf(1), 'REF-1');
    const first = await cache.of(graphOf(1), ROOT);
    expect(JSON.stringify(first)).to.contain('REF-1');
    await write(inner, graphOf(1), 'REF-2');
    expect(await cache.of(graphOf(1), ROOT)).to.deep.equal(first);
    expect(store.reads).to.equal(1);
    cache.invalidate(graphOf(1));
    expect(JSON.stringify(await cache.of(graphOf(1), ROOT))).to.contain('REF-2');
    expect(store.reads).to.equal(2);
  });

  it('hands out copies: changing an answer does not change the next one', async () => {
    const inner = new OxigraphStore();
    const cache = new GraphJson(inner, queries);
    await write(inner, graphOf(1), 'REF-1');
    const first = await cache.of(graphOf(1), ROOT);
    first.tampered = true;
    expect(await cache.of(graphOf(1), ROOT)).to.not.have.property('tampered');
  });

  it('never keeps an answer read while a write to its graph landed', async () => {
    const inner = new OxigraphStore();
    const store = new CountingStore(inner);
    const cache = new GraphJson(store, queries);
    await write(inner, graphOf(1), 'REF-1');
    store.duringRead = () => cache.invalidate(graphOf(1));
    expect(JSON.stringify(await cache.of(graphOf(1), ROOT))).to.contain('REF-1');
    store.duringRead = undefined;
    await cache.of(graphOf(1), ROOT);
    expect(store.reads).to.equal(2);
  });

  it('forgets the least recently used graph beyond its capacity', async () => {
    const inner = new OxigraphStore();
    const store = new CountingStore(inner);
    const cache = new GraphJson(store, queries, 2);
    for (const n of [1, 2, 3]) await write(inner, graphOf(n), `REF-${n}`);
    await cache.of(graphOf(1), ROOT);
    await cache.of(graphOf(2), ROOT);
    await cache.of(graphOf(1), ROOT);
    await cache.of(graphOf(3), ROOT);
    expect(store.reads).to.equal(3);
    await cache.of(graphOf(1), ROOT);
    expect(store.reads).to.equal(3);
    await cache.of(graphOf(2), ROOT);
    expect(store.reads).to.equal(4);
  });

  describe("prefetch (a view's graph reads in one request, for a store without direct graph text)", () => {
    it('reads the graphs not cached yet in one query, framed as of() frames each alone', async () => {
      const inner = new OxigraphStore();
      const store = new CountingStore(inner);
      const cache = new GraphJson(store, queries);
      for (const n of [1, 2, 3]) await write(inner, graphOf(n), `REF-${n}`);
      const alone = new GraphJson(inner, queries);
      const expected = await Promise.all([1, 2, 3].map((n) => alone.of(graphOf(n), ROOT)));
      await cache.of(graphOf(1), ROOT);
      await cache.prefetch([1, 2, 3].map((n) => ({ graph: graphOf(n), root: ROOT })));
      expect(store.selects).to.equal(1);
      expect(await Promise.all([1, 2, 3].map((n) => cache.of(graphOf(n), ROOT)))).to.deep.equal(expected);
      expect(store.reads).to.equal(1);
    });

    it('reads a graph the packed answer cannot carry (a blank node) row by row, framed the same', async () => {
      const inner = new OxigraphStore();
      const store = new CountingStore(inner);
      const cache = new GraphJson(store, queries);
      await write(inner, graphOf(1), 'REF-1');
      await (
        await inner.commit({
          ops: [
            {
              op: 'insert',
              nquads: `<${ROOT}> <${unece('consignorParty')}> _:p <${graphOf(2)}> .\n_:p <${unece('name')}> "Acme" <${graphOf(2)}> .\n`,
            },
          ],
        })
      ).durable;
      const alone = new GraphJson(inner, queries);
      const expected = await Promise.all([1, 2].map((n) => alone.of(graphOf(n), ROOT)));
      expect(JSON.stringify(expected[1])).to.contain('Acme');
      await cache.prefetch([1, 2].map((n) => ({ graph: graphOf(n), root: ROOT })));
      expect(store.selects).to.equal(2);
      expect(await Promise.all([1, 2].map((n) => cache.of(graphOf(n), ROOT)))).to.deep.equal(expected);
      expect(store.reads).to.equal(0);
    });

    it('does not cache a graph a write landed on while the request was under way', async () => {
      const inner = new OxigraphStore();
      const store = new CountingStore(inner);
      const cache = new GraphJson(store, queries);
      for (const n of [1, 2]) await write(inner, graphOf(n), `REF-${n}`);
      store.duringRead = () => cache.invalidate(graphOf(2));
      await cache.prefetch([1, 2].map((n) => ({ graph: graphOf(n), root: ROOT })));
      store.duringRead = undefined;
      await cache.of(graphOf(1), ROOT);
      expect(store.reads).to.equal(0);
      await cache.of(graphOf(2), ROOT);
      expect(store.reads).to.equal(1);
    });

    it('leaves a single miss, and a store that reads graph text directly, to of()', async () => {
      const inner = new OxigraphStore();
      const store = new CountingStore(inner);
      for (const n of [1, 2]) await write(inner, graphOf(n), `REF-${n}`);
      await new GraphJson(store, queries).prefetch([{ graph: graphOf(1), root: ROOT }]);
      await new GraphJson(store, queries, 10, () => '').prefetch([1, 2].map((n) => ({ graph: graphOf(n), root: ROOT })));
      expect(store.selects).to.equal(0);
    });
  });
});
