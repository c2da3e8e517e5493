import { expect } from 'chai';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import { InvalidChangeError } from '../../../../src/adapters/sparql-server/update-text.js';
import { termToString } from '../../../../src/core/rdf/terms.js';
import { nth, only } from '../../../helpers/present.js';

const G = 'urn:uuid:00000000-0000-4000-8000-000000000001';
const M = 'urn:dataspace:graph:metadata';

async function seeded(): Promise<OxigraphStore> {
  const store = new OxigraphStore();
  await store.commit({
    ops: [
      { op: 'insert', nquads: `<urn:s> <urn:p> _:b0 <${G}> .\n_:b0 <urn:q> "v\\"1\\"\\n" <${G}> .\n` },
      { op: 'insert', nquads: `<urn:c> <urn:status> "published" <${M}> .\n<urn:c> <urn:owner> <urn:o> <${M}> .\n` },
    ],
  });
  return store;
}

const all = (store: OxigraphStore) =>
  store.store
    .match(null, null, null, null)
    .map((q) => q.toString())
    .sort();

describe('store: embedded Oxigraph commits', () => {
  it('applies a change in order: drop, delete matching, insert', async () => {
    const store = await seeded();
    await store.commit({
      ops: [
        { op: 'dropGraph', graph: G },
        { op: 'insert', nquads: `<urn:s> <urn:p> "replaced" <${G}> .\n` },
        { op: 'deleteMatching', subject: '<urn:c>', predicate: '<urn:status>', object: null, graph: M },
        { op: 'insert', nquads: `<urn:c> <urn:status> "delivered" <${M}> .\n` },
      ],
    });
    expect(all(store)).to.deep.equal(
      [`<urn:c> <urn:owner> <urn:o> <${M}>`, `<urn:c> <urn:status> "delivered" <${M}>`, `<urn:s> <urn:p> "replaced" <${G}>`].sort(),
    );
    expect(await store.size()).to.equal(3);
  });

  it('keeps literals with escapes and blank-node structure', async () => {
    const store = await seeded();
    const link = only(store.store.match(null, null, null, null).filter((q) => q.predicate.value === 'urn:p'));
    const value = nth(store.store.match(link.object as never, null, null, null), 0);
    expect(value.object.value).to.equal('v"1"\n');
  });

  it('applies nothing of a change whose later insert is not valid N-Quads', async () => {
    const store = await seeded();
    const before = all(store);
    const bad = [
      `<urn:s> <urn:p> "unterminated <${G}> .\n`,
      `<urn:s> <urn:p> <not an iri> <${G}> .\n`,
      '<urn:s> <urn:p> <urn:o> .\n', // no graph
    ];
    for (const nquads of bad) {
      let failed = false;
      await store
        .commit({
          ops: [
            { op: 'dropGraph', graph: G },
            { op: 'insert', nquads },
          ],
        })
        .catch(() => {
          failed = true;
        });
      expect(failed, nquads).to.equal(true);
      expect(all(store)).to.deep.equal(before);
    }
  });

  it('refuses delete terms that are not an IRI or a literal, before changing anything', async () => {
    const store = await seeded();
    const before = all(store);
    for (const subject of ['<urn:c> } ; DROP ALL ; #', '_:b0', '?x', '"x" } ; CLEAR ALL']) {
      await store
        .commit({
          ops: [
            { op: 'dropGraph', graph: G },
            { op: 'deleteMatching', subject, predicate: null, object: null, graph: M },
          ],
        })
        .then(
          () => expect.fail(`accepted ${subject}`),
          (e: Error) => expect(e).to.be.instanceOf(InvalidChangeError),
        );
    }
    await store.commit({ ops: [{ op: 'dropGraph', graph: 'urn:g> } ; DROP ALL ; #' }] }).then(
      () => expect.fail(),
      (e: Error) => expect(e).to.be.instanceOf(InvalidChangeError),
    );
    expect(all(store)).to.deep.equal(before);
  });

  it('takes changes with empty inserts, alone or beside a drop', async () => {
    const store = await seeded();
    await store.commit({ ops: [{ op: 'insert', nquads: '' }] });
    expect(await store.size()).to.equal(4);
    await store.commit({
      ops: [
        { op: 'insert', nquads: '' },
        { op: 'dropGraph', graph: G },
      ],
    });
    expect(all(store)).to.deep.equal([`<urn:c> <urn:owner> <urn:o> <${M}>`, `<urn:c> <urn:status> "published" <${M}>`]);
    expect(await store.size()).to.equal(2);
  });

  it('deletes matching a literal object exactly', async () => {
    const store = await seeded();
    await store.commit({ ops: [{ op: 'deleteMatching', subject: null, predicate: null, object: '"published"', graph: M }] });
    expect(all(store)).to.not.include(`<urn:c> <urn:status> "published" <${M}>`);
    expect(await store.size()).to.equal(3);
  });
});

describe('store: embedded Oxigraph CONSTRUCT answers', () => {
  const same = (quads: { subject: unknown; predicate: unknown; object: unknown; graph: unknown }[]) =>
    quads
      .map(
        (q) =>
          termToString(q.subject as never) +
          ' ' +
          termToString(q.predicate as never) +
          ' ' +
          termToString(q.object as never) +
          ' ' +
          (q.graph as { termType: string }).termType,
      )
      .sort();

  it("are the quads Oxigraph's own terms give, read from its N-Triples: escapes, languages, datatypes, blank nodes", async () => {
    const store = new OxigraphStore();
    const nquads =
      [
        `<urn:s> <urn:p> "{\\"id\\":\\"x\\",\\n\\"t\\":\\"\\u00e9\\t\\\\\\"}" <${G}> .`,
        `<urn:s> <urn:p> "Grüße 😀"@de-DE <${G}> .`,
        `<urn:s> <urn:p> "2026-11-24T08:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> <${G}> .`,
        `<urn:s> <urn:p> "7"^^<http://www.w3.org/2001/XMLSchema#integer> <${G}> .`,
        `<urn:s> <urn:q> _:b <${G}> .`,
        `_:b <urn:r> "\\r\\u0001" <${G}> .`,
      ].join('\n') + '\n';
    await store.commit({ ops: [{ op: 'insert', nquads }] });
    const query = `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${G}> { ?s ?p ?o } }`;
    const answered = await store.construct(query);
    const own = store.store.query(query) as unknown as Parameters<typeof same>[0];
    expect(answered).to.have.length(6);
    // Blank node labels differ between two answers; their shape does not.
    const unlabelled = (lines: string[]) => lines.map((line) => line.replace(/_:[A-Za-z0-9]+/g, '_:x')).sort();
    expect(unlabelled(same(answered))).to.deep.equal(unlabelled(same(own)));
    expect(
      answered.find((q) => q.predicate.value === 'urn:r')!.subject.equals(answered.find((q) => q.predicate.value === 'urn:q')!.object),
    ).to.equal(true);
    await store.close();
  });

  it("falls back to Oxigraph's own terms for an answer its text reader does not read (a triple term)", async () => {
    const store = new OxigraphStore();
    await store.commit({ ops: [{ op: 'insert', nquads: `<urn:s> <urn:p> <<( <urn:a> <urn:b> <urn:c> )>> <${G}> .\n` }] });
    const quad = only(await store.construct(`CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${G}> { ?s ?p ?o } }`));
    expect(quad.object.termType).to.equal('Quad');
    await store.close();
  });
});
