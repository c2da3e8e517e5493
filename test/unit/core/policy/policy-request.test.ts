import { expect } from 'chai';
import oxigraph from 'oxigraph';
import { MalformedPolicy, parsePolicyRequest, policyIri } from '../../../../src/core/policy/policies.js';
import { policyQuads } from '../../../../src/core/policy/policy-rdf.js';

const ODRL = 'http://www.w3.org/ns/odrl/2/';
const SVC = 'https://w3id.org/supply-chain-dataspace/ns#';

describe('policy requests and their ODRL form', () => {
  it('takes a border agency policy and a narrowed location operator policy, dropping repeats', () => {
    expect(parsePolicyRequest({ role: 'borderAgency', countries: ['GB', 'GB', 'FR'] })).to.deep.equal({
      role: 'borderAgency',
      countries: ['GB', 'FR'],
      locations: [],
      consignments: [],
    });
    const id = 'urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(parsePolicyRequest({ role: 'locationOperator', locations: ['GBFXT'], consignments: [id, id] })).to.deep.equal({
      role: 'locationOperator',
      countries: [],
      locations: ['GBFXT'],
      consignments: [id],
    });
  });

  const refused: [string, unknown][] = [
    ['null', null],
    ['an array', []],
    ['a missing role', {}],
    ['a role of no policy', { role: 'freightForwarder', countries: ['GB'] }],
    ['a country list for an operator', { role: 'locationOperator', locations: ['GBFXT'], countries: ['GB'] }],
    ['an empty country list', { role: 'borderAgency', countries: [] }],
    ['a number for a country', { role: 'borderAgency', countries: [44] }],
    ['a three-letter country', { role: 'borderAgency', countries: ['GBR'] }],
    ['an empty consignment list', { role: 'borderAgency', countries: ['GB'], consignments: [] }],
    ['an unknown key', { role: 'borderAgency', countries: ['GB'], expires: '2030-01-01' }],
  ];
  for (const [what, body] of refused) {
    it(`refuses ${what} with a message`, () => {
      expect(() => parsePolicyRequest(body))
        .to.throw(MalformedPolicy)
        .with.property('message')
        .that.is.a('string').and.not.empty;
    });
  }

  it('takes full policy ids and bare uuids, and nothing that is not an IRI', () => {
    expect(policyIri('urn:dataspace:policy:abc')).to.equal('urn:dataspace:policy:abc');
    expect(policyIri('abc')).to.equal('urn:dataspace:policy:abc');
    expect(policyIri('a b>')).to.equal(undefined);
  });

  it('writes an odrl:Set in the policies graph: read permission, assigner, role and country constraints, narrowing', () => {
    const id = 'urn:dataspace:policy:1';
    const store = new oxigraph.Store();
    store.load(
      policyQuads({
        id,
        owner: 'did:web:f.example',
        created: '2026-01-01T00:00:00Z',
        role: 'borderAgency',
        countries: ['GB'],
        locations: [],
        consignments: ['urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e'],
      }),
      { format: 'application/n-quads' },
    );
    const g = oxigraph.namedNode('urn:dataspace:graph:policies');
    const has = (s: string, p: string, o: oxigraph.Term) =>
      store.has(oxigraph.quad(oxigraph.namedNode(s), oxigraph.namedNode(p), o as oxigraph.NamedNode, g));
    expect(has(id, 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', oxigraph.namedNode(`${ODRL}Set`))).to.equal(true);
    expect(has(id, `${ODRL}assigner`, oxigraph.namedNode('did:web:f.example'))).to.equal(true);
    expect(has(`${id}#permission`, `${ODRL}action`, oxigraph.namedNode(`${ODRL}read`))).to.equal(true);
    expect(has(`${id}#role`, `${ODRL}rightOperand`, oxigraph.namedNode(`${SVC}borderAgency`))).to.equal(true);
    expect(has(`${id}#countries`, `${ODRL}rightOperand`, oxigraph.literal('GB'))).to.equal(true);
    expect(has(`${id}#narrowed`, `${ODRL}leftOperand`, oxigraph.namedNode(`${SVC}consignmentGlobalId`))).to.equal(true);
    expect(store.match(null, null, null, null).every((q) => q.graph.equals(g))).to.equal(true);
  });
});
