import { expect } from 'chai';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import { deletesGoFirst } from '../../../../src/adapters/oxigraph/deletes-then-load.js';
import { InvalidChangeError } from '../../../../src/adapters/sparql-server/update-text.js';
import type { ChangeOp } from '../../../../src/core/ports/quad-store.js';

const G = 'urn:uuid:00000000-0000-4000-8000-000000000001';
const USAGE = 'urn:dataspace:graph:usage';
const M = 'urn:dataspace:graph:metadata';

const all = (store: OxigraphStore) =>
  store.store
    .match(null, null, null, null)
    .map((q) => q.toString())
    .sort();

async function seeded(): Promise<OxigraphStore> {
  const store = new OxigraphStore();
  await store.commit({
    ops: [
      { op: 'insert', nquads: `<urn:u> <urn:consignments> "1" <${USAGE}> .\n<urn:u> <urn:bytes> "10" <${USAGE}> .\n` },
      { op: 'insert', nquads: `<urn:c> <urn:status> "published" <${M}> .\n` },
    ],
  });
  return store;
}

/** A charged write as the ingest and the quota gate build it: the data, then its totals replaced. */
const chargedWrite: ChangeOp[] = [
  { op: 'insert', nquads: `<urn:s> <urn:p> _:b0 <${G}> .\n_:b0 <urn:q> "v" <${G}> .\n<urn:s2> <urn:status> "new" <${M}> .\n` },
  { op: 'deleteMatching', subject: '<urn:u>', predicate: null, object: null, graph: USAGE },
  { op: 'insert', nquads: `<urn:u> <urn:consignments> "2" <${USAGE}> .\n<urn:u> <urn:bytes> "10" <${USAGE}> .\n` },
];

describe('store: a charged write applied as deletes, then one load', () => {
  it('leaves the store as the same ops applied as one SPARQL Update', async () => {
    const direct = await seeded();
    expect(deletesGoFirst(chargedWrite)).to.equal(true);
    await direct.commit({ ops: chargedWrite });
    // A drop of a graph nobody wrote makes the change go through the update text.
    const updated = await seeded();
    const viaUpdate: ChangeOp[] = [{ op: 'dropGraph', graph: 'urn:nothing' }, ...chargedWrite];
    expect(deletesGoFirst(viaUpdate)).to.equal(false);
    await updated.commit({ ops: viaUpdate });
    // Blank nodes get labels of their own in each store: compare with them named alike.
    const plain = (quads: string[]) => quads.map((q) => q.replace(/_:\w+/g, '_:b'));
    expect(plain(all(direct))).to.deep.equal(plain(all(updated)));
    expect(all(direct)).to.include(`<urn:u> <urn:bytes> "10" <${USAGE}>`);
    expect(all(direct)).to.not.include(`<urn:u> <urn:consignments> "1" <${USAGE}>`);
    expect(await direct.size()).to.equal(await updated.size());
  });

  it('keeps the order of a delete that comes after an insert into its graph', async () => {
    const store = await seeded();
    const ops: ChangeOp[] = [
      { op: 'insert', nquads: `<urn:c> <urn:status> "delivered" <${M}> .\n` },
      { op: 'deleteMatching', subject: '<urn:c>', predicate: '<urn:status>', object: null, graph: M },
    ];
    expect(deletesGoFirst(ops)).to.equal(false);
    await store.commit({ ops });
    expect(all(store).filter((q) => q.includes('urn:status'))).to.deep.equal([]);
  });

  it('puts the deleted quads back when a later insert is not valid N-Quads', async () => {
    const store = await seeded();
    const before = all(store);
    const ops: ChangeOp[] = [
      { op: 'deleteMatching', subject: '<urn:u>', predicate: null, object: null, graph: USAGE },
      { op: 'insert', nquads: `<urn:u> <urn:consignments> "unterminated <${USAGE}> .\n` },
    ];
    expect(deletesGoFirst(ops)).to.equal(true);
    await store.commit({ ops }).then(
      () => expect.fail('accepted a bad insert'),
      () => undefined,
    );
    expect(all(store)).to.deep.equal(before);
    expect(await store.size()).to.equal(before.length);
  });

  it('refuses a delete term the update text refuses, before changing anything', async () => {
    const store = await seeded();
    const before = all(store);
    for (const subject of ['_:b0', '?x', '<urn:u> } ; DROP ALL ; #']) {
      await store.commit({ ops: [{ op: 'deleteMatching', subject, predicate: null, object: null, graph: USAGE }] }).then(
        () => expect.fail(`accepted ${subject}`),
        (e: Error) => expect(e).to.be.instanceOf(InvalidChangeError),
      );
    }
    expect(all(store)).to.deep.equal(before);
  });
});
