import { expect } from 'chai';
import { FairLock } from '../../../src/util/fair-lock.js';

const tick = () => new Promise((ok) => setImmediate(ok));

describe('FairLock: one holder at a time, granted to organisations in turn', () => {
  it('runs one holder at a time, and each waiting owner gets a turn before an owner takes its second', async () => {
    const lock = new FairLock();
    const order: string[] = [];
    let inside = 0;
    let most = 0;
    const hold = (owner: string, n: number) => lock.runExclusive(owner, async () => {
      inside++;
      most = Math.max(most, inside);
      order.push(`${owner}${n}`);
      await tick();
      inside--;
    });
    // B sends a burst of five first; A and C one each while B's first holds the lock.
    const all = [1, 2, 3, 4, 5].map((n) => hold('B', n));
    all.push(hold('A', 1), hold('C', 1), hold('A', 2));
    await Promise.all(all);
    expect(most).to.equal(1);
    // FIFO would run B1..B5 before A1. In turns: B1 (held at once), then B, A, C, B, A, B, B.
    expect(order).to.deep.equal(['B1', 'B2', 'A1', 'C1', 'B3', 'A2', 'B4', 'B5']);
    expect(lock.queued).to.equal(0);
  });

  it('passes the lock on when a holder throws, and gives the error to that holder only', async () => {
    const lock = new FairLock();
    const failing = lock.runExclusive('B', async () => { throw new Error('refused'); });
    const next = lock.runExclusive('A', async () => 'ran');
    expect(await failing.then(() => 'resolved', (error: Error) => error.message)).to.equal('refused');
    expect(await next).to.equal('ran');
    expect(await lock.runExclusive('C', async () => 'free again')).to.equal('free again');
  });
});
