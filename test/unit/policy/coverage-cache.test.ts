import { expect } from 'chai';
import { ChangeClock } from '../../../src/policy/change-clock.js';
import { CoverageCache } from '../../../src/policy/coverage-cache.js';
import { coverageKey } from '../../../src/policy/coverage-subject.js';
import type { Principal } from '../../../src/auth/principal.js';
import type { VisibleConsignment } from '../../../src/policy/visible-records.js';

const record = (n: number): VisibleConsignment => ({
  consignment: `urn:dataspace:consignment:${n}`, owner: 'did:web:forwarder.example', globalId: `urn:uuid:${n}`, identifier: `REF-${n}`,
  stateGraph: `urn:uuid:state-${n}`, created: '2026-11-20T10:00:00Z', updated: '2026-11-20T10:00:00Z', status: 'published', seq: n,
});

const principal = (id: string, country = 'GB'): Principal => ({
  email: `officer@${id}`, org: { id, name: id, role: 'borderAgency', country, locations: [] } as unknown as Principal['org'],
});

describe('CoverageCache', () => {
  it('asks the rule once per consignment and kind of principal, again after a write or a policy change', async () => {
    const clock = new ChangeClock();
    const asked: string[][] = [];
    let readable = new Set([1, 2]);
    const cache = new CoverageCache(clock, async (_p, candidates) => {
      asked.push(candidates);
      return candidates.map((c) => Number(c.split(':').pop())).filter((n) => readable.has(n)).map(record);
    });
    const gb = principal('did:web:border.example');
    const ids = [3, 1, 2].map((n) => record(n).consignment);
    expect((await cache.readable(gb, ids)).map((c) => c.seq)).to.deep.equal([1, 2]);
    expect((await cache.readable(gb, ids)).map((c) => c.seq)).to.deep.equal([1, 2]);
    expect(asked).to.have.length(1);
    // Another country is another kind of principal: decided for itself.
    expect((await cache.readable(principal('did:web:douane.example', 'FR'), ids)).map((c) => c.seq)).to.deep.equal([1, 2]);
    expect(asked).to.have.length(2);

    readable = new Set([1, 3]);
    clock.consignmentChanged(record(3).consignment);
    expect((await cache.readable(gb, ids)).map((c) => c.seq)).to.deep.equal([1, 2, 3]);
    expect(asked[2]).to.deep.equal([record(3).consignment]);
    clock.policiesChanged();
    expect((await cache.readable(gb, ids)).map((c) => c.seq)).to.deep.equal([1, 3]);
    expect(asked[3]).to.have.members(ids);
  });

  it('keys principals by everything the rule reads of them', () => {
    const a = principal('did:web:border.example');
    expect(coverageKey(a)).to.equal(coverageKey(principal('did:web:border.example')));
    expect(coverageKey(a)).to.not.equal(coverageKey(principal('did:web:border.example', 'FR')));
    expect(coverageKey(a)).to.not.equal(coverageKey(principal('did:web:other.example')));
  });
});
