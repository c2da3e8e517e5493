import { expect } from 'chai';
import fc from 'fast-check';
import { Ingest } from '../../src/core/activities/ingest.js';
import type { Principal } from '../../src/core/auth/principal.js';
import { coveragePolicies } from '../../src/core/policy/coverage-policies.js';
import { CoverageRule, grantCovers } from '../../src/core/policy/coverage.js';
import { coverageBindings, coverageSubject } from '../../src/core/policy/coverage-subject.js';
import { policyQuads } from '../../src/core/policy/policy-rdf.js';
import { int, iri, list, QueryBank } from '../../src/core/queries/query-bank.js';
import type { PolicySeed, Role } from '../../src/core/registry/seed.js';
import { fedStore } from '../helpers/fed-store.js';
import { activity, consignment, newGlobalId } from '../helpers/payloads.js';
import { nth } from '../helpers/present.js';

/*
 * The data-sharing rule is written once in SPARQL (two forms: sparql/policy/coverage-check and
 * coverage-enumerate .rq-fragment) and once in code (src/core/policy/coverage.ts). On random policies
 * (roles, countries, locations, lists of globalIds, some naming no consignment), consignments (owners,
 * routes) and principals, stored through the node's own writers (policy-rdf.ts for policies, the
 * ingest's Create for consignments) in a real Oxigraph store, the three answer alike for every
 * (principal, consignment) pair. COVERAGE_SEED=<n> replays a run; a failure prints its seed and path.
 */

const queries = new QueryBank();
const SEED = Number(process.env.COVERAGE_SEED ?? 20261123);
const RUNS = Number(process.env.COVERAGE_RUNS ?? 150);

const OWNERS = ['did:web:a.example', 'did:web:b.example', 'did:web:c.example'];
const COUNTRIES = ['DE', 'NL', 'FR'];
const LOCATIONS = ['DEHAM', 'NLRTM', 'BEANR'];
const ROLES: Role[] = ['freightForwarder', 'borderAgency', 'locationOperator'];

interface StateConsignment {
  owner: number;
  locations: string[];
}
interface StatePolicy {
  owner: number;
  role: Role;
  countries: string[];
  locations: string[];
  consignments: number[];
}
interface StatePrincipal {
  role: Role;
  country?: string;
  locations: string[];
  org: number;
}

const subset = <T>(values: T[]) => fc.subarray(values);
const arbConsignment = fc.record({ owner: fc.nat(OWNERS.length - 1), locations: subset(LOCATIONS) });
// Consignment indexes up to 5 in a list: some name a consignment the state does not have.
const arbPolicy = fc
  .record({
    owner: fc.nat(OWNERS.length - 1),
    role: fc.constantFrom(...ROLES),
    countries: subset(COUNTRIES),
    locations: subset(LOCATIONS),
    consignments: fc.oneof(fc.constant<number[]>([]), fc.uniqueArray(fc.nat(5), { minLength: 1, maxLength: 3 })),
  })
  .filter((p) => p.countries.length + p.locations.length > 0);
// Principals act for one of the owners (forwarders) or an organisation of their own.
const arbPrincipal = fc.record({
  org: fc.nat(OWNERS.length),
  role: fc.constantFrom(...ROLES),
  country: fc.option(fc.constantFrom(...COUNTRIES), { nil: undefined }),
  locations: subset(LOCATIONS),
});
const arbState = fc.record({
  consignments: fc.array(arbConsignment, { minLength: 1, maxLength: 4 }),
  policies: fc.array(arbPolicy, { maxLength: 4 }),
  principals: fc.array(arbPrincipal, { minLength: 1, maxLength: 4 }),
});

function principal(p: StatePrincipal, n: number): Principal {
  const id = OWNERS[p.org] ?? `did:web:reader-${n}.example`;
  return { email: `u${n}@x`, org: { id, name: id, role: p.role, country: p.country, locations: p.locations } };
}

const located = (codes: string[]) => codes.map((UNLocode) => ({ type: 'LogisticsLocation', name: UNLocode, UNLocode }));

async function stored(state: { consignments: StateConsignment[]; policies: StatePolicy[] }) {
  const { store, onAccepted } = fedStore();
  const ingest = new Ingest({ store, queries, nodeName: 'coverage-test' });
  await ingest.init();
  const records = new Map<string, string>();
  onAccepted((accepted) => records.set(accepted.consignment.globalId, accepted.consignment.consignment));
  const globalIds = state.consignments.map(() => newGlobalId());
  for (const [i, c] of state.consignments.entries()) {
    const body = consignment({ globalId: nth(globalIds, i), loadingBaseportLocation: located(c.locations) });
    delete body.unloadingBaseportLocation;
    const owner = nth(OWNERS, c.owner);
    const principal: Principal = { email: 'owner@x', org: { id: owner, name: owner, role: 'freightForwarder', locations: [] } };
    expect((await ingest.receive(activity('Create', owner, body), principal)).status).to.equal('completed');
  }
  // A list may name a globalId no consignment has (index past the end).
  const listed = (indexes: number[]) => indexes.map((i) => globalIds[i] ?? `urn:uuid:00000000-0000-4000-8000-00000000000${i}`);
  // Any role, forwarders too (the API refuses such a policy, the rule must still read it alike in both forms).
  for (const [i, p] of state.policies.entries()) {
    const nquads = policyQuads({
      id: `urn:dataspace:policy:p${i}`,
      created: '2026-11-23T00:00:00Z',
      owner: nth(OWNERS, p.owner),
      role: p.role as PolicySeed['role'],
      countries: p.countries,
      locations: p.locations,
      consignments: listed(p.consignments),
    });
    await (
      await store.commit({ ops: [{ op: 'insert', nquads }] })
    ).durable;
  }
  const targets = state.consignments.map((c, i) => ({
    record: records.get(nth(globalIds, i))!,
    owner: nth(OWNERS, c.owner),
    globalId: nth(globalIds, i),
    locations: new Set(c.locations),
  }));
  return { store, targets };
}

describe('the coverage rule: SPARQL fragments and the code evaluator agree (property)', function () {
  this.timeout(120_000);

  it(`answers alike for every principal and consignment over ${RUNS} random states (seed ${SEED})`, async () => {
    let pairs = 0;
    let covered = 0;
    await fc.assert(
      fc.asyncProperty(arbState, async (state) => {
        const { store, targets } = await stored(state);
        const rule = new CoverageRule(coveragePolicies(await store.select(queries.text('policy/all-policies'))));
        const records = targets.map((t) => t.record);
        for (const [n, p] of state.principals.entries()) {
          const who = principal(p, n);
          const subject = coverageSubject(who);
          const byCode = targets
            .filter((t) => rule.covers(subject, t))
            .map((t) => t.record)
            .sort();
          const byGrants = targets
            .filter((t) => t.owner === subject.org || rule.grants(subject).some((g) => grantCovers(g, t)))
            .map((t) => t.record)
            .sort();
          const checked = (
            await store.select(queries.bind('views/visible-consignments', { ...coverageBindings(who), candidates: list(records.map(iri)) }))
          )
            .map((row) => row.get('consignment')!.value)
            .sort();
          const enumerated = (
            await store.select(queries.bind('views/list-consignments', { ...coverageBindings(who), after: int(0), limit: int(1000) }))
          )
            .map((row) => row.get('consignment')!.value)
            .sort();
          const what = JSON.stringify({ principal: p, state: { consignments: state.consignments, policies: state.policies } });
          expect(checked, `coverage-check vs code: ${what}`).to.deep.equal(byCode);
          expect(enumerated, `coverage-enumerate vs code: ${what}`).to.deep.equal(byCode);
          expect(byGrants, `grants vs covers: ${what}`).to.deep.equal(byCode);
          pairs += records.length;
          covered += byCode.length;
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // Not a vacuous agreement: the random states cover some pairs and leave others uncovered.
    expect(covered).to.be.above(pairs / 10);
    expect(covered).to.be.below(pairs);
  });
});
