import { expect } from 'chai';
import { nextStep, retryDelay, type RetryPolicy } from '../../../../src/core/notify/retry-schedule.js';

const policy: RetryPolicy = { baseMs: 1000, maxDelayMs: 60 * 60 * 1000, giveUpAfterMs: 24 * 60 * 60 * 1000 };

describe('retry schedule', () => {
  // failures, random → delay (ms): half the ceiling fixed, half jittered; the ceiling doubles to its cap.
  const delays: [number, number, number][] = [
    [1, 0, 500],
    [1, 0.5, 750],
    [1, 0.999999, 1000],
    [2, 0, 1000],
    [2, 0.999999, 2000],
    [3, 0.5, 3000],
    [10, 0, 256_000],
    [12, 0, 1_024_000],
    [13, 0, 1_800_000],
    [13, 0.999999, 3_599_998],
    [40, 0.5, 2_700_000],
    [5000, 1, 3_600_000],
  ];
  for (const [failures, random, expected] of delays) {
    it(`waits ${expected} ms after failure ${failures} with random ${random}`, () => {
      expect(retryDelay(failures, policy, random)).to.equal(expected);
    });
  }

  it('never waits less than half nor more than the ceiling, whatever the dice', () => {
    for (let failures = 1; failures <= 30; failures++) {
      const ceiling = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** (failures - 1));
      for (const random of [0, 0.1, 0.37, 0.5, 0.9, 0.999999, -1, 2]) {
        const delay = retryDelay(failures, policy, random);
        expect(delay, `${failures}/${random}`).to.be.within(ceiling / 2, ceiling);
      }
    }
  });

  it('refuses a failure count that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, NaN]) expect(() => retryDelay(bad, policy, 0.5)).to.throw(RangeError);
  });

  // failures, queued at, failed at → next step, with random 0.5
  const steps: [string, number, number, number, ReturnType<typeof nextStep>][] = [
    ['first failure right away', 1, 0, 10, { retryAt: 10 + 750 }],
    ['third failure', 3, 0, 5000, { retryAt: 5000 + 3000 }],
    ['close to the deadline: pulled in to it', 12, 0, 86_000_000, { retryAt: 86_400_000 }],
    ['at the deadline', 20, 0, 86_400_000, { giveUp: true }],
    ['past the deadline', 2, 0, 90_000_000, { giveUp: true }],
    ['queued later, same failure', 1, 1_000_000, 1_000_010, { retryAt: 1_000_760 }],
  ];
  for (const [name, failures, queuedAt, failedAt, expected] of steps) {
    it(`next step: ${name}`, () => {
      expect(nextStep(failures, queuedAt, failedAt, policy, 0.5)).to.deep.equal(expected);
    });
  }

  it('with a give-up time of 0 tries exactly once', () => {
    expect(nextStep(1, 100, 100, { ...policy, giveUpAfterMs: 0 }, 0.5)).to.deep.equal({ giveUp: true });
  });

  it('adds up to about 44 attempts in 24 hours with the defaults and middling dice', () => {
    let at = 0;
    let attempts = 1;
    for (;;) {
      const step = nextStep(attempts, 0, at, policy, 0.5);
      if ('giveUp' in step) break;
      at = step.retryAt;
      attempts++;
    }
    expect(attempts).to.be.within(40, 48);
  });
});
