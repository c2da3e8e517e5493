import { expect } from 'chai';
import { ReplayCache } from '../../../../src/core/accounts/replay-cache.js';

const T = 1_800_000_000_000;
const HOUR = 3_600_000;

describe('ReplayCache: each key once until it expires, within a share per owner', () => {
  it('takes a key once, and again only after its expiry', () => {
    const cache = new ReplayCache(10);
    expect(cache.remember('a', 'k', T + 60_000, T)).to.equal('fresh');
    expect(cache.remember('a', 'k', T + 60_000, T + 59_000)).to.equal('replayed');
    expect(cache.remember('a', 'k', T + 120_000, T + 61_000)).to.equal('fresh');
  });

  it("refuses a full owner's new keys and leaves other owners' alone; a replay is still named a replay", () => {
    const cache = new ReplayCache(3);
    for (const key of ['1', '2', '3']) expect(cache.remember('a', key, T + HOUR, T)).to.equal('fresh');
    expect(cache.remember('a', '4', T + HOUR, T)).to.equal('full');
    expect(cache.remember('a', '1', T + HOUR, T)).to.equal('replayed');
    expect(cache.remember('b', '1', T + HOUR, T)).to.equal('fresh');
    expect(cache.size('a')).to.equal(3);
  });

  it('frees a full share as its entries expire', () => {
    const cache = new ReplayCache(2);
    cache.remember('a', '1', T + 10_000, T);
    cache.remember('a', '2', T + HOUR, T);
    expect(cache.remember('a', '3', T + HOUR, T + 5_000)).to.equal('full');
    expect(cache.remember('a', '3', T + HOUR, T + 9_999)).to.equal('full');
    expect(cache.remember('a', '3', T + HOUR, T + 10_000)).to.equal('fresh');
    expect(cache.size('a')).to.equal(2);
    expect(cache.remember('a', '4', T + HOUR, T + 10_000)).to.equal('full');
  });
});
