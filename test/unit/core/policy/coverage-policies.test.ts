import { expect } from 'chai';
import type { ChangeNote } from '../../../../src/core/catalog/change-notes.js';
import { Policies } from '../../../../src/core/policy/policies.js';
import { CoveragePolicies } from '../../../../src/core/policy/coverage-policies.js';
import type { CoverageSubject } from '../../../../src/core/policy/coverage-subject.js';
import type { CoverageTarget } from '../../../../src/core/policy/coverage.js';
import { policyRecordNode } from '../../../../src/core/policy/policy-rdf.js';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import { GRAPHS, svc } from '../../../../src/core/rdf/namespaces.js';
import { iriToString } from '../../../../src/core/rdf/terms.js';
import { DelegatingStore } from '../../../../src/core/store/delegating-store.js';
import type { Bindings, QueryDataset } from '../../../../src/core/ports/quad-store.js';
import { fedStore } from '../../../helpers/fed-store.js';

const queries = new QueryBank();
const A = 'did:web:a.example';
const B = 'did:web:b.example';
const SUBJECTS: CoverageSubject[] = [
  { org: 'did:web:border-gb.example', role: 'borderAgency', countries: ['GB'], locations: [] },
  { org: 'did:web:border-fr.example', role: 'borderAgency', countries: ['FR'], locations: [] },
  { org: 'did:web:hamburg.example', role: 'locationOperator', countries: [], locations: ['DEHAM'] },
  { org: 'did:web:two.example', role: 'locationOperator', countries: [], locations: ['NLRTM', 'BEANR'] },
];
const TARGETS: CoverageTarget[] = [A, B].flatMap((owner) =>
  [['DEHAM'], ['NLRTM'], ['BEANR', 'GBFXT'], []].map((route, i) => ({
    owner,
    globalId: `urn:uuid:${owner.length}-${i}`,
    locations: new Set(route),
  })),
);

/** Counts the selects the rule's reads make. */
class Counting extends DelegatingStore {
  selects: string[] = [];
  override async select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
    this.selects.push(query);
    return this.inner.select(query, dataset);
  }
}

/** What a rule decides for every subject and target: two rules over the same policies decide alike. */
async function decisions(coverage: CoveragePolicies): Promise<boolean[]> {
  const rule = await coverage.rule();
  return SUBJECTS.flatMap((subject) => TARGETS.map((target) => rule.covers(subject, target)));
}

describe('CoveragePolicies (the policies in force, followed change by change)', () => {
  it('follows registrations and withdrawals from their notes to what a fresh read of the store decides, reading nothing', async () => {
    const { feed, store } = fedStore();
    const counting = new Counting(store);
    const followed = new CoveragePolicies(counting, queries, true);
    feed.follow('coverage', ({ notes }) => followed.follow(notes));
    const policies = new Policies(store, queries);
    await policies.register(A, { role: 'borderAgency', countries: ['GB'], locations: [], consignments: [] });
    await decisions(followed);
    const reads = counting.selects.length;
    const hamburg = await policies.register(A, {
      role: 'locationOperator',
      countries: [],
      locations: ['DEHAM', 'NLRTM'],
      consignments: [],
    });
    await policies.register(B, { role: 'borderAgency', countries: ['FR', 'GB'], locations: [], consignments: [`urn:uuid:${B.length}-1`] });
    const fresh = () => decisions(new CoveragePolicies(store, queries, true));
    expect(await decisions(followed)).to.deep.equal(await fresh());
    expect(await decisions(followed)).to.include(true);
    expect(await policies.withdraw(A, hamburg.id)).to.equal(true);
    expect(await decisions(followed)).to.deep.equal(await fresh());
    expect(counting.selects.length, 'reads after the first').to.equal(reads);
    // Not told what changed (the seed at start): read again, whole.
    followed.follow([{ kind: 'policies' } satisfies ChangeNote]);
    expect(await decisions(followed)).to.deep.equal(await fresh());
    expect(counting.selects.length).to.be.greaterThan(reads);
  });

  it('loads one record literal a policy, and the constraint rows where a policy has none', async () => {
    const { store } = fedStore();
    const policies = new Policies(store, queries);
    await policies.register(A, { role: 'locationOperator', countries: [], locations: ['DEHAM'], consignments: [] });
    const old = await policies.register(B, { role: 'borderAgency', countries: ['GB'], locations: [], consignments: [] });
    const byRecords = new Counting(store);
    const expected = await decisions(new CoveragePolicies(byRecords, queries, true));
    expect(byRecords.selects.some((q) => q.includes('svc:policyRecord'))).to.equal(true);
    expect(byRecords.selects.some((q) => q.includes('odrl:rightOperand ?value'))).to.equal(false);
    // A policy written before the records: every policy read the long way, the same decisions.
    await (
      await store.commit({
        ops: [
          {
            op: 'deleteMatching',
            subject: iriToString(policyRecordNode(old.id)),
            predicate: iriToString(svc('policyRecord')),
            object: null,
            graph: GRAPHS.policies,
          },
        ],
      })
    ).durable;
    const byRows = new Counting(store);
    expect(await decisions(new CoveragePolicies(byRows, queries, true))).to.deep.equal(expected);
    expect(byRows.selects.some((q) => q.includes('odrl:rightOperand ?value'))).to.equal(true);
    // The export of the ODRL leaves the record out.
    expect((await policies.odrlOf(A)).some((q) => q.predicate.value === svc('policyRecord'))).to.equal(false);
  });
});
