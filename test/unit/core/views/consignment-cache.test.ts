import { expect } from 'chai';
import { ChangeClock } from '../../../../src/core/policy/change-clock.js';
import { ConsignmentCache } from '../../../../src/core/views/consignment-cache.js';

const A = 'urn:uuid:00000000-0000-4000-8000-00000000000a';
const B = 'urn:uuid:00000000-0000-4000-8000-00000000000b';

describe('ConsignmentCache', () => {
  it('answers from the cache until the consignment changes, per variant', async () => {
    const clock = new ChangeClock();
    const cache = new ConsignmentCache<string>(clock, (v) => v.length, 1_000);
    let made = 0;
    const make = (value: string) => async () => {
      made++;
      return value;
    };
    expect(await cache.get(A, 'org1', make('a1'))).to.equal('a1');
    expect(await cache.get(A, 'org1', make('other'))).to.equal('a1');
    expect(await cache.get(A, 'org2', make('a2'))).to.equal('a2');
    expect(made).to.equal(2);
    clock.consignmentChanged(B);
    expect(await cache.get(A, 'org1', make('other'))).to.equal('a1');
    clock.consignmentChanged(A);
    expect(await cache.get(A, 'org1', make('a1 after write'))).to.equal('a1 after write');
    expect(await cache.get(A, 'org2', make('a2 after write'))).to.equal('a2 after write');
  });

  it('never keeps a value made while a write to its consignment landed', async () => {
    const clock = new ChangeClock();
    const cache = new ConsignmentCache<string>(clock, (v) => v.length, 1_000);
    const value = await cache.get(A, '', async () => {
      clock.consignmentChanged(A);
      return 'read before the write';
    });
    expect(value).to.equal('read before the write');
    expect(await cache.get(A, '', async () => 'fresh')).to.equal('fresh');
  });

  it('drops the least recently used values beyond its weight', async () => {
    const clock = new ChangeClock();
    const cache = new ConsignmentCache<string>(clock, (v) => v.length, 10);
    await cache.get(A, '1', async () => 'xxxx');
    await cache.get(A, '2', async () => 'yyyy');
    await cache.get(A, '1', async () => 'not asked');
    await cache.get(A, '3', async () => 'zzzz');
    expect(await cache.get(A, '1', async () => 'again')).to.equal('xxxx');
    expect(await cache.get(A, '2', async () => 'made again')).to.equal('made again');
  });
});
