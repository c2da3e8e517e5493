import { expect } from 'chai';
import { ReaderLanes } from '../../../../src/core/activities/reader-lanes.js';
import { ReaderPool } from '../../../../src/core/activities/reader-pool.js';
import { createLogger } from '../../../../src/core/logger.js';
import { activity, consignment } from '../../../helpers/payloads.js';

const FORWARDER = 'did:web:forwarder.example';
const OTHER = 'did:web:other.example';

describe('ReaderLanes (small payloads apart from large ones)', () => {
  it('gives a lane thread small jobs only, a general thread large ones first, then small ones', () => {
    const lanes = new ReaderLanes<string>(8, 64);
    lanes.push('B', 'B-large-1', false);
    lanes.push('B', 'B-large-2', false);
    lanes.push('A', 'A-small', true);
    lanes.push('B', 'B-small', true);
    expect(lanes.next(true)).to.equal('A-small');
    expect(lanes.next(false)).to.equal('B-large-1');
    expect(lanes.next(false)).to.equal('B-large-2');
    expect(lanes.next(true)).to.equal('B-small');
    expect(lanes.next(true)).to.equal(undefined);
    lanes.push('A', 'A-small-2', true);
    expect(lanes.next(false)).to.equal('A-small-2');
    expect(lanes.size).to.equal(0);
  });

  it('bounds an organisation and the node over both lanes together', () => {
    const lanes = new ReaderLanes<number>(2, 3);
    expect(lanes.push('B', 1, false)).to.equal(undefined);
    expect(lanes.push('B', 2, true)).to.equal(undefined);
    expect(lanes.push('B', 3, true)).to.deep.equal({ refused: 'owner', waiting: 2 });
    expect(lanes.push('A', 4, true)).to.equal(undefined);
    expect(lanes.push('C', 5, false)).to.deep.equal({ refused: 'total', waiting: 3 });
    expect(lanes.drain().sort()).to.deep.equal([1, 2, 4]);
    expect(lanes.size).to.equal(0);
  });
});

describe('ReaderPool with a lane for small payloads', function () {
  this.timeout(60_000);

  /** Large enough to keep the general thread busy for a while (expansion and shapes of 600 nested nodes). */
  const large = () =>
    activity(
      'Create',
      OTHER,
      consignment({
        includedConsignmentItem: Array.from({ length: 600 }, (_, i) => ({
          type: 'ConsignmentItem',
          information: `Item ${i}`,
          goodsTypeCode: 'unece:GoodsTypeCodeList#8483',
        })),
      }),
    );

  async function order(smallValues: number): Promise<string[]> {
    const pool = new ReaderPool(1, createLogger('silent'), undefined, { perOrganisation: 8, total: 64, smallValues });
    try {
      // Every thread ready (each compiles its shapes first), so the order below is the lanes' alone.
      const threads = (pool as unknown as { threads: { ready: boolean }[] }).threads;
      for (let i = 0; i < 300 && !threads.every((t) => t.ready); i += 1) await new Promise((ok) => setTimeout(ok, 100));
      expect(threads.every((t) => t.ready)).to.equal(true);
      const answered: string[] = [];
      const big = pool.read(large(), OTHER).then(() => answered.push('large'));
      const small = pool.read(activity('Create', FORWARDER, consignment()), FORWARDER).then(() => answered.push('small'));
      await Promise.all([big, small]);
      return answered;
    } finally {
      await pool.close();
    }
  }

  it('answers a small payload sent after a large one first: it does not wait for the large one', async () => {
    expect(await order(1000)).to.deep.equal(['small', 'large']);
  });

  it('without the lane, the one thread reads them in turn', async () => {
    expect(await order(0)).to.deep.equal(['large', 'small']);
  });
});
