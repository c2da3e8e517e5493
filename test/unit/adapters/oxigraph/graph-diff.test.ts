import { expect } from 'chai';
import { createHash } from 'node:crypto';
import oxigraph from 'oxigraph';
import { graphDiff } from '../../../../src/adapters/oxigraph/graph-diff.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import { only } from '../../../helpers/present.js';

const G = 'urn:uuid:00000000-0000-4000-8000-0000000000aa';
const parse = (nquads: string) => oxigraph.parse(nquads, { format: 'application/n-quads' });

/** A consignment shaped like the bench's: parties with addresses, a location, an item. Labels vary by `tag`. */
function consignment(tag: string, { description = 'Machine parts', consignor = 'Acme Exports Ltd', items = ['Gearboxes'] } = {}): string {
  const c = '<urn:uuid:c1>';
  const lines = [
    `${c} <urn:d:summaryDescription> "${description}"`,
    `${c} <urn:d:consignor> _:${tag}p1`,
    `_:${tag}p1 <urn:d:name> "${consignor}"`,
    `_:${tag}p1 <urn:d:postalAddress> _:${tag}a1`,
    `_:${tag}a1 <urn:d:country> <urn:c:GB>`,
    `${c} <urn:d:consignee> _:${tag}p2`,
    `_:${tag}p2 <urn:d:name> "Beta Imports BV"`,
    `_:${tag}p2 <urn:d:postalAddress> _:${tag}a2`,
    `_:${tag}a2 <urn:d:country> <urn:c:NL>`,
    `${c} <urn:d:loading> _:${tag}l1`,
    `_:${tag}l1 <urn:d:code> "GBFXT"`,
    ...items.flatMap((info, i) => [
      `${c} <urn:d:item> _:${tag}i${i}`,
      `_:${tag}i${i} <urn:d:information> "${info}"`,
      `_:${tag}i${i} <urn:d:origin> _:${tag}o${i}`,
      `_:${tag}o${i} <urn:d:country> <urn:c:GB>`,
    ]),
  ];
  return lines.map((l) => `${l} <${G}> .\n`).join('');
}

/**
 * The graph's quads with every blank node named by a digest of the subtree below it: two graphs that
 * are the same up to blank-node names give the same list (the graphs here are trees).
 */
function canonical(quads: readonly oxigraph.Quad[]): string[] {
  const bySubject = new Map<string, oxigraph.Quad[]>();
  for (const q of quads) bySubject.set(q.subject.value, [...(bySubject.get(q.subject.value) ?? []), q]);
  const name = (node: oxigraph.BlankNode): string =>
    createHash('sha1')
      .update(
        (bySubject.get(node.value) ?? [])
          .map((q) => `${q.predicate.value} ${term(q.object)}`)
          .sort()
          .join('\n'),
      )
      .digest('hex');
  const term = (t: oxigraph.Quad['subject'] | oxigraph.Quad['object']): string =>
    t.termType === 'BlankNode' ? `_:${name(t)}` : t.toString();
  return quads.map((q) => `${term(q.subject)} ${q.predicate.toString()} ${term(q.object)}`).sort();
}

async function storeWith(nquads: string): Promise<OxigraphStore> {
  const store = new OxigraphStore();
  await store.commit({ ops: [{ op: 'insert', nquads }] });
  return store;
}

const graphOf = (store: OxigraphStore) => store.store.match(null, null, null, oxigraph.namedNode(G));

describe('store: a graph replaced by the quads that differ', () => {
  it('changes one quad when one literal changed, whatever the blank nodes are called', () => {
    const { remove, add } = graphDiff(parse(consignment('old')), parse(consignment('new', { description: 'Machine parts, revised' })));
    expect(remove.map((q) => q.object.value)).to.deep.equal(['Machine parts']);
    expect(add.map((q) => q.object.value)).to.deep.equal(['Machine parts, revised']);
  });

  it('changes nothing when nothing changed', () => {
    const { remove, add } = graphDiff(parse(consignment('old')), parse(consignment('new')));
    expect(remove).to.have.length(0);
    expect(add).to.have.length(0);
  });

  it('keeps the blank nodes under a changed one: a renamed party keeps its address', () => {
    const { remove, add } = graphDiff(parse(consignment('old')), parse(consignment('new', { consignor: 'Acme Holdings' })));
    expect(remove.map((q) => q.object.value)).to.deep.equal(['Acme Exports Ltd']);
    expect(add.map((q) => q.object.value)).to.deep.equal(['Acme Holdings']);
  });

  it('adds an item to a list and keeps the items that did not change', () => {
    const { remove, add } = graphDiff(
      parse(consignment('old', { items: ['Gearboxes'] })),
      parse(consignment('new', { items: ['Gearboxes', 'Axles'] })),
    );
    expect(remove).to.have.length(0);
    expect(add.map((q) => q.predicate.value).sort()).to.deep.equal(['urn:d:country', 'urn:d:information', 'urn:d:item', 'urn:d:origin']);
  });

  it('keeps two identical items two: blank nodes are paired one to one', async () => {
    const store = await storeWith(consignment('old', { items: ['Gearboxes'] }));
    const next = consignment('new', { items: ['Gearboxes', 'Gearboxes'] });
    await store.commit({ ops: [{ op: 'replaceGraph', graph: G, nquads: next }] });
    expect(canonical(graphOf(store))).to.deep.equal(canonical(parse(next)));
    expect(graphOf(store).filter((q) => q.predicate.value === 'urn:d:item')).to.have.length(2);
  });

  it('pairs each old blank node once, even one that hangs from two places', async () => {
    const store = await storeWith(`<urn:uuid:r> <urn:p> _:x <${G}> .\n<urn:uuid:r> <urn:q> _:x <${G}> .\n_:x <urn:v> "1" <${G}> .\n`);
    const next = `<urn:uuid:r> <urn:p> _:y <${G}> .\n<urn:uuid:r> <urn:q> _:z <${G}> .\n_:y <urn:v> "1" <${G}> .\n_:z <urn:v> "1" <${G}> .\n`;
    await store.commit({ ops: [{ op: 'replaceGraph', graph: G, nquads: next }] });
    expect(canonical(graphOf(store))).to.deep.equal(canonical(parse(next)));
    expect(
      new Set(
        graphOf(store)
          .filter((q) => q.subject.termType === 'NamedNode')
          .map((q) => q.object.value),
      ).size,
    ).to.equal(2);
  });

  it('never gives a new blank node the name of an old one it was not paired with', async () => {
    const store = await storeWith(`<urn:uuid:c> <urn:d:consignor> _:p <${G}> .\n_:p <urn:d:name> "A" <${G}> .\n`);
    const link = only(graphOf(store).filter((q) => q.predicate.value === 'urn:d:consignor'));
    const old = link.object.value;
    // The Update's text reuses the old node's name for a new party (as kept items are written back).
    const next = `<urn:uuid:c> <urn:d:consignor> _:n <${G}> .\n_:n <urn:d:name> "A" <${G}> .\n<urn:uuid:c> <urn:d:consignee> _:${old} <${G}> .\n_:${old} <urn:d:name> "B" <${G}> .\n`;
    await store.commit({ ops: [{ op: 'replaceGraph', graph: G, nquads: next }] });
    expect(canonical(graphOf(store))).to.deep.equal(canonical(parse(next)));
  });

  it('leaves a graph equal to the new quads, over random trees and random edits', async () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const tree = (tag: string) => {
      const lines: string[] = [];
      let next = 0;
      const grow = (subject: string, depth: number) => {
        for (let i = random(4); i >= 0; i--) {
          const p = `<urn:p:${random(3)}>`;
          if (depth < 3 && random(2) === 0) {
            const b = `_:${tag}${next++}`;
            lines.push(`${subject} ${p} ${b}`);
            grow(b, depth + 1);
          } else lines.push(`${subject} ${p} "${random(3)}"`);
        }
      };
      grow('<urn:uuid:r1>', 0);
      if (random(2) === 0) grow('<urn:uuid:r2>', 1);
      return [...new Set(lines)].map((l) => `${l} <${G}> .\n`).join('');
    };
    for (let run = 0; run < 150; run++) {
      const store = await storeWith(tree('a'));
      const deadBefore = store.deadQuads;
      const next = tree('b');
      await store.commit({ ops: [{ op: 'replaceGraph', graph: G, nquads: next }] });
      expect(canonical(graphOf(store)), `run ${run}`).to.deep.equal(canonical(parse(next)));
      expect(await store.size()).to.equal(graphOf(store).length);
      expect(store.deadQuads - deadBefore).to.be.at.most(graphOf(store).length + parse(next).length);
    }
  });
});

describe('store: replaceGraph in the embedded store', () => {
  it('holds one removed quad, not the whole graph, after an Update of one field', async () => {
    const store = await storeWith(consignment('old'));
    const before = store.deadQuads;
    const next = consignment('new', { description: 'Revised' });
    await store.commit({ ops: [{ op: 'replaceGraph', graph: G, nquads: next }] });
    expect(store.deadQuads - before).to.equal(1);
    expect(canonical(graphOf(store))).to.deep.equal(canonical(parse(next)));
  });

  it('gives the same graph when replayed on another copy, as recovery and the SPARQL engine do', async () => {
    const first = consignment('a');
    const change = { ops: [{ op: 'replaceGraph' as const, graph: G, nquads: consignment('b', { consignor: 'Other', items: [] }) }] };
    const live = await storeWith(first);
    await live.commit(change);
    const replayed = new OxigraphStore();
    replayed.replay([{ ops: [{ op: 'insert', nquads: first }] }, change, change]);
    expect(canonical(graphOf(replayed))).to.deep.equal(canonical(graphOf(live)));
  });

  it('loads a graph that held nothing, and empties one replaced by nothing', async () => {
    const store = new OxigraphStore();
    await store.commit({ ops: [{ op: 'replaceGraph', graph: G, nquads: consignment('x') }] });
    expect(canonical(graphOf(store))).to.deep.equal(canonical(parse(consignment('y'))));
    await store.commit({ ops: [{ op: 'replaceGraph', graph: G, nquads: '' }] });
    expect(graphOf(store)).to.have.length(0);
    expect(await store.size()).to.equal(0);
  });

  it('applies nothing of a change whose replaceGraph is not valid or reaches another graph', async () => {
    const store = await storeWith(consignment('old'));
    const before = canonical(graphOf(store));
    const bad = [`<urn:s> <urn:p> "unterminated <${G}> .\n`, '<urn:s> <urn:p> "elsewhere" <urn:uuid:other> .\n'];
    for (const nquads of bad) {
      let failed = false;
      await store
        .commit({
          ops: [
            { op: 'deleteMatching', subject: null, predicate: null, object: null, graph: G },
            { op: 'replaceGraph', graph: G, nquads },
          ],
        })
        .catch(() => {
          failed = true;
        });
      expect(failed, nquads).to.equal(true);
      expect(canonical(graphOf(store))).to.deep.equal(before);
    }
  });
});
