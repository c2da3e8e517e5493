import { expect } from 'chai';
import { CoverageRule, type CoveragePolicy, type CoverageTarget } from '../../../../src/core/policy/coverage.js';
import type { CoverageSubject } from '../../../../src/core/policy/coverage-subject.js';

const FORWARDER = 'did:web:forwarder.example';
const policy = (fields: Partial<CoveragePolicy>): CoveragePolicy => ({
  owner: FORWARDER,
  role: 'borderAgency',
  countries: [],
  locations: [],
  consignments: [],
  ...fields,
});
const consignment = (fields: Partial<CoverageTarget> = {}): CoverageTarget => ({
  owner: FORWARDER,
  globalId: 'urn:uuid:1',
  locations: new Set(['NLRTM']),
  ...fields,
});
const border = (country: string): CoverageSubject => ({
  org: `did:web:border-${country}.example`,
  role: 'borderAgency',
  countries: [country],
  locations: [],
});
const operator = (...locations: string[]): CoverageSubject => ({
  org: 'did:web:port.example',
  role: 'locationOperator',
  countries: [],
  locations,
});
const forwarder = (org: string): CoverageSubject => ({ org, role: 'freightForwarder', countries: [], locations: [] });

/** The rule in code, row by row: policies, subject, consignment → covered (the property test ties it to SPARQL). */
const TABLE: { what: string; policies: CoveragePolicy[]; subject: CoverageSubject; target: CoverageTarget; covered: boolean }[] = [
  { what: 'the owner, with no policy', policies: [], subject: forwarder(FORWARDER), target: consignment(), covered: true },
  {
    what: 'another forwarder',
    policies: [policy({ countries: ['GB'] })],
    subject: forwarder('did:web:other.example'),
    target: consignment(),
    covered: false,
  },
  {
    what: 'a border agency of a listed country',
    policies: [policy({ countries: ['GB', 'NL'] })],
    subject: border('NL'),
    target: consignment(),
    covered: true,
  },
  {
    what: 'a border agency of another country',
    policies: [policy({ countries: ['GB'] })],
    subject: border('FR'),
    target: consignment(),
    covered: false,
  },
  {
    what: 'a policy of another owner',
    policies: [policy({ owner: 'did:web:other.example', countries: ['GB'] })],
    subject: border('GB'),
    target: consignment(),
    covered: false,
  },
  {
    what: 'a policy for another role',
    policies: [policy({ role: 'locationOperator', countries: ['GB'] })],
    subject: border('GB'),
    target: consignment(),
    covered: false,
  },
  {
    what: 'a narrowed policy listing the consignment',
    policies: [policy({ countries: ['GB'], consignments: ['urn:uuid:1'] })],
    subject: border('GB'),
    target: consignment(),
    covered: true,
  },
  {
    what: 'a narrowed policy listing others only',
    policies: [policy({ countries: ['GB'], consignments: ['urn:uuid:2'] })],
    subject: border('GB'),
    target: consignment(),
    covered: false,
  },
  {
    what: 'an operator of a location on the route',
    policies: [policy({ role: 'locationOperator', locations: ['NLRTM'] })],
    subject: operator('NLRTM'),
    target: consignment(),
    covered: true,
  },
  {
    what: 'an operator whose listed location the route misses',
    policies: [policy({ role: 'locationOperator', locations: ['DEHAM'] })],
    subject: operator('DEHAM'),
    target: consignment(),
    covered: false,
  },
  {
    what: 'an operator of a routed location the policy does not list',
    policies: [policy({ role: 'locationOperator', locations: ['DEHAM'] })],
    subject: operator('NLRTM', 'DEHAM'),
    target: consignment(),
    covered: false,
  },
  {
    what: 'two policies, the second granting',
    policies: [policy({ countries: ['FR'] }), policy({ countries: ['GB'] })],
    subject: border('GB'),
    target: consignment(),
    covered: true,
  },
];

describe('CoverageRule (the coverage rule in code)', () => {
  for (const row of TABLE) {
    it(`${row.covered ? 'covers' : 'does not cover'}: ${row.what}`, () => {
      expect(new CoverageRule(row.policies).covers(row.subject, row.target)).to.equal(row.covered);
    });
  }
});
