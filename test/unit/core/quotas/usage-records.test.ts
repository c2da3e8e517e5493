import { expect } from 'chai';
import oxigraph from 'oxigraph';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import { USAGE_GRAPH, UsageBook } from '../../../../src/core/quotas/usage-records.js';

const ORG = 'did:web:a.example';
const rowsIn = (store: OxigraphStore) => store.store.match(null, null, null, oxigraph.namedNode(USAGE_GRAPH));

describe('quotas: the usage book writes one row an organisation', () => {
  it('replaces the row under a new subject at each write, and a start reads the last totals back', async () => {
    const store = new OxigraphStore();
    const queries = new QueryBank();
    const book = new UsageBook(store, queries);
    await book.load();
    const usage = book.organisation(ORG);
    for (let n = 1; n <= 5; n++) {
      usage.consignments = n;
      usage.bytes = 100 * n;
      await store.commit({ ops: book.organisationOps(ORG, usage).ops });
    }
    // One row of five quads: each write deleted the one before.
    expect(rowsIn(store)).to.have.length(5);
    expect(new Set(rowsIn(store).map((q) => q.subject.value)).size).to.equal(1);
    const again = new UsageBook(store, queries);
    await again.load();
    expect(again.organisation(ORG)).to.deep.equal({ consignments: 5, graphs: 0, policies: 0, bytes: 500 });
    // The book read back replaces the row it found, not a second one beside it.
    await store.commit({ ops: again.organisationOps(ORG, { consignments: 6, graphs: 0, policies: 0, bytes: 600 }).ops });
    expect(rowsIn(store)).to.have.length(5);
  });

  it('deletes the row the store holds after a write the store refused', async () => {
    const store = new OxigraphStore();
    const book = new UsageBook(store, new QueryBank());
    await book.load();
    await store.commit({ ops: book.organisationOps(ORG, { consignments: 1, graphs: 0, policies: 0, bytes: 10 }).ops });
    const refused = book.organisationOps(ORG, { consignments: 2, graphs: 0, policies: 0, bytes: 20 });
    const bad = { op: 'insert' as const, nquads: '<urn:s> <urn:p> "unterminated <urn:g> .\n' };
    await store.commit({ ops: [...refused.ops, bad] }).then(
      () => expect.fail('a bad insert was taken'),
      () => refused.undo(),
    );
    await store.commit({ ops: book.organisationOps(ORG, { consignments: 2, graphs: 0, policies: 0, bytes: 20 }).ops });
    expect(rowsIn(store)).to.have.length(5);
    expect(rowsIn(store).find((q) => q.predicate.value.endsWith('consignments'))?.object.value).to.equal('2');
  });
});
