import { expect } from 'chai';
import { FairSlots } from '../../../../src/core/util/fair-slots.js';

const tick = () => new Promise((ok) => setImmediate(ok));

describe('FairSlots: slots granted to organisations in turn, each within its share', () => {
  it('as a lock (one slot): one holder at a time, and each waiting owner gets a turn before an owner takes its second', async () => {
    const lock = new FairSlots({ slots: 1 });
    const order: string[] = [];
    let inside = 0;
    let most = 0;
    const hold = (owner: string, n: number) =>
      lock.run(owner, async () => {
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
    // First in, first out would run B1..B5 before A1. In turns: B1 (held at once), then B, A, C, B, A, B, B.
    expect(order).to.deep.equal(['B1', 'B2', 'A1', 'C1', 'B3', 'A2', 'B4', 'B5']);
    expect(lock.queued).to.equal(0);
  });

  it('passes the slot on when a holder throws, and gives the error to that holder only', async () => {
    const lock = new FairSlots({ slots: 1 });
    const failing = lock.run('B', async () => {
      throw new Error('refused');
    });
    const next = lock.run('A', async () => 'ran');
    expect(
      await failing.then(
        () => 'resolved',
        (error: Error) => error.message,
      ),
    ).to.equal('refused');
    expect(await next).to.equal('ran');
    expect(await lock.run('C', async () => 'free again')).to.equal('free again');
  });

  it('keeps an owner within its share of the slots, leaves the rest to others, and refuses past its waiting bound', async () => {
    const slots = new FairSlots({ slots: 4, perOwner: 2, waitingPerOwner: 3, what: 'document fetches' });
    const releases: (() => void)[] = [];
    const running = new Map<string, number>();
    const hold = (owner: string) =>
      slots.run(
        owner,
        () =>
          new Promise<void>((done) => {
            running.set(owner, (running.get(owner) ?? 0) + 1);
            releases.push(() => {
              running.set(owner, running.get(owner)! - 1);
              done();
            });
          }),
      );
    const bs = Array.from({ length: 5 }, () => hold('B'));
    await tick();
    expect(running.get('B')).to.equal(2);
    // Two slots stay free for others while B waits with three.
    const as = [hold('A'), hold('A')];
    await tick();
    expect(running.get('A')).to.equal(2);
    const refused = await hold('B').then(
      () => undefined,
      (error: Error & { status?: number }) => error,
    );
    expect(refused?.message).to.match(/3 document fetches waiting/);
    expect(refused?.status).to.equal(429);
    // Each release hands the slot to B, still within two at once.
    while (releases.length > 0) {
      releases.shift()!();
      await tick();
      expect(running.get('B')! <= 2).to.equal(true);
    }
    await Promise.all([...bs, ...as]);
    expect(slots.queued).to.equal(0);
  });
});
