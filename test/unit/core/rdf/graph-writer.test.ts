import { expect } from 'chai';
import oxigraph from 'oxigraph';
import { writeGraph } from '../../../../src/core/rdf/graph-writer.js';
import { toQuads } from '../../../../src/core/activities/parse.js';

describe('writeGraph', () => {
  it('names the root, keeps blank nodes of two writes apart and parses back as N-Quads', async () => {
    const payload = {
      '@context': 'https://vocabulary.uncefact.org/unece-context-D23B.jsonld',
      type: 'Consignment',
      identifier: 'R"1\n',
      consignorParty: { name: 'A' },
    };
    const quads = await toQuads(payload);
    const root = quads.find((q) => q.predicate.value.endsWith('identifier'))!.subject;
    const one = writeGraph(quads, 'urn:uuid:g1', root, 'urn:uuid:root1', 'w1');
    const two = writeGraph(quads, 'urn:uuid:g2', root, 'urn:uuid:root2', 'w2');
    const store = new oxigraph.Store();
    store.load(one + two, { format: 'application/n-quads' });
    expect(store.size).to.equal(quads.length * 2);
    const blanks = new Set(
      store
        .match()
        .filter((q) => q.object.termType === 'BlankNode')
        .map((q) => q.object.value),
    );
    expect(blanks.size).to.equal(2);
    const identifiers = store.match(oxigraph.namedNode('urn:uuid:root1'), oxigraph.namedNode('https://vocabulary.uncefact.org/identifier'));
    expect(identifiers.map((q) => q.object.value)).to.deep.equal(['R"1\n']);
  });
});
