import { expect } from 'chai';
import type { CounterFactory } from '../../src/core/auth/login-throttle.js';

/**
 * What every maker of failed-login counters (OwnState.loginCounters) answers, in memory or in
 * PostgreSQL: the calls LoginThrottle makes (penalty, reward, delete), counted per key and prefix.
 * `make` gives counters over fresh state.
 */
export function loginCountersContract(make: () => Promise<CounterFactory>): void {
  describe('login counters contract', () => {
    it('counts penalties per key up to past its points, with the time left in the window', async () => {
      const counter = (await make())({ points: 2, duration: 60, keyPrefix: 'aa' });
      const counts = [];
      for (let i = 0; i < 3; i += 1) counts.push((await counter.penalty('a@b.example')).consumedPoints);
      expect(counts).to.deep.equal([1, 2, 3]);
      const last = await counter.penalty('a@b.example');
      expect(last.msBeforeNext).to.be.within(1, 60_000);
      expect((await counter.penalty('c@d.example')).consumedPoints).to.equal(1);
    });

    it('gives a count back with reward and forgets a key with delete', async () => {
      const counter = (await make())({ points: 5, duration: 60, keyPrefix: 'a' });
      await counter.penalty('k');
      await counter.penalty('k');
      expect((await counter.reward('k')).consumedPoints).to.equal(1);
      await counter.delete('k');
      expect((await counter.penalty('k')).consumedPoints).to.equal(1);
    });

    it('keeps counters of different prefixes apart', async () => {
      const counters = await make();
      const address = counters({ points: 5, duration: 60, keyPrefix: 'ip' });
      const account = counters({ points: 5, duration: 60, keyPrefix: 'a' });
      await address.penalty('same');
      await address.penalty('same');
      expect((await account.penalty('same')).consumedPoints).to.equal(1);
    });
  });
}
