import { expect } from 'chai';
import { ConsignmentIndex } from '../../../../src/core/ports/memory-consignment-catalog.js';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import { GRAPHS, RDF_TYPE, svc } from '../../../../src/core/rdf/namespaces.js';
import { NQuadsBuilder } from '../../../../src/core/rdf/nquads.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';

const LOWER = 'urn:uuid:6f1c1f5e-5a8e-4a49-9f57-0d6b8ee1c001';
const UPPER = 'urn:uuid:6F1C1F5E-5A8E-4A49-9F57-0D6B8EE1C001';
const OTHER_UPPER = 'urn:uuid:ABCDEF00-5A8E-4A49-9F57-0D6B8EE1C002';

/** Records as a node stored them before globalIds were kept canonical: upper-case hex, and one pair differing in case alone. */
async function legacyStore(): Promise<OxigraphStore> {
  const store = new OxigraphStore();
  const meta = new NQuadsBuilder(GRAPHS.metadata);
  [LOWER, UPPER, OTHER_UPPER].forEach((globalId, i) => {
    const c = `urn:dataspace:consignment:${i}`;
    meta
      .iri(c, RDF_TYPE, svc('ConsignmentRecord'))
      .literal(c, svc('globalId'), globalId)
      .literal(c, svc('identifier'), `REF-${i}`)
      .literal(c, svc('seq'), i + 1)
      .iri(c, svc('owner'), 'did:web:a.example')
      .literal(c, svc('created'), '2026-11-22T00:00:00Z', 'http://www.w3.org/2001/XMLSchema#dateTime')
      .literal(c, svc('updated'), '2026-11-22T00:00:00Z', 'http://www.w3.org/2001/XMLSchema#dateTime')
      .literal(c, svc('status'), 'published')
      .iri(c, svc('stateGraph'), `urn:uuid:10000000-0000-4000-8000-00000000000${i}`);
  });
  await store.commit({ ops: [{ op: 'insert', nquads: meta.toString() }] });
  return store;
}

describe('consignment records stored before globalIds were kept canonical', () => {
  it('load, and are found by their stored form and by the canonical one (the canonical record first)', async () => {
    const records = new ConsignmentIndex(await legacyStore(), new QueryBank());
    await records.complete();
    expect((await records.byGlobalId(LOWER))?.consignment).to.equal('urn:dataspace:consignment:0');
    expect((await records.byGlobalId(UPPER))?.consignment).to.equal('urn:dataspace:consignment:1');
    expect((await records.byGlobalId(OTHER_UPPER.toLowerCase()))?.consignment).to.equal('urn:dataspace:consignment:2');
    expect(await records.byGlobalId('urn:uuid:00000000-0000-4000-8000-000000000009')).to.equal(undefined);
  });
});
