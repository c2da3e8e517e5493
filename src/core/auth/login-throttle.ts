import { isIPv6 } from 'node:net';
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LoginConfig } from './login-config.js';

/** Refused for `retryAfterSeconds`, naming which limit was reached. */
export interface Throttled {
  retryAfterSeconds: number;
  limit: 'account-address' | 'account' | 'address';
  /** Refused for attempts still being checked, not for failures: nothing was counted, and it ends when they finish. */
  busy?: boolean;
}

/** Makes one fixed-window counter of `points` in `duration` seconds. */
export type CounterFactory = (options: { points: number; duration: number; keyPrefix: string }) => RateLimiterAbstract;

/** Counters in this process's memory: a single node's (replicas share theirs in PostgreSQL, adapters/postgres/login-counters.ts). */
export const memoryCounters: CounterFactory = (options) => new RateLimiterMemory(options);

/**
 * Slows password guessing with three fixed-window counters of login attempts that did not succeed (rate-limiter-flexible,
 * in memory): per account and client address, per account, and per client address.
 *
 * The trade-off: an attacker at one address locks only the pair (account, that address), so the owner
 * logging in from elsewhere is never locked out by it; the per-account counter is far looser and only
 * stops guessing spread over many addresses, at the price that such an attacker can keep that one
 * account locked for one window at a time. Every lock ends with its window: the owner gets in then.
 *
 * Memory stays bounded: entries live only until their window ends, each expires with its window, keys are short
 * (an email is at most 254 characters; an IPv6 client counts by its /64), and the per-address counter
 * caps how many account keys one address can create per window.
 */
export class LoginThrottle {
  private readonly accountAddress: RateLimiterAbstract;
  private readonly account: RateLimiterAbstract;
  private readonly address: RateLimiterAbstract;
  /** Attempts of this process still being checked, by counter key: what a counter holds beside failures. */
  private readonly inFlight = new Map<string, number>();

  constructor(config: LoginConfig, counters: CounterFactory = memoryCounters) {
    const duration = config.windowSeconds;
    this.accountAddress = counters({ points: config.accountAddressFailures, duration, keyPrefix: 'aa' });
    this.account = counters({ points: config.accountFailures, duration, keyPrefix: 'a' });
    this.address = counters({ points: config.addressFailures, duration, keyPrefix: 'ip' });
  }

  /**
   * Counts one login attempt and says why it is refused, or undefined. Attempts are counted before the
   * password is checked, so concurrent guesses cannot all slip past a counter not yet raised; what ends
   * without a wrong password gives its count back: a success (succeeded), a check that could not finish
   * (abandoned), and a refusal here, which checked nothing. So only failures stay counted, and a burst
   * of correct logins from one office never locks its address: the excess is refused for a second
   * (`busy`, nothing counted) while the others are checked.
   */
  async attempt(email: string, clientAddress: string | undefined): Promise<Throttled | undefined> {
    const counted = this.counted(email, clientAddress);
    let refused: Throttled | undefined;
    for (const [limiter, key, limit] of counted) {
      const res = await limiter.penalty(key);
      if (!refused && res.consumedPoints > limiter.points) {
        const failures = res.consumedPoints - 1 - (this.inFlight.get(key) ?? 0);
        refused =
          failures >= limiter.points
            ? { limit, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) }
            : { limit, retryAfterSeconds: 1, busy: true };
      }
    }
    if (refused) await Promise.all(counted.map(([limiter, key]) => limiter.reward(key)));
    else for (const [, key] of counted) this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    return refused;
  }

  /** The owner got in: their address's failures on the account are forgotten, the attempt given back elsewhere. */
  async succeeded(email: string, clientAddress: string | undefined): Promise<void> {
    const keys = this.keys(email, clientAddress);
    this.settled(email, clientAddress);
    await Promise.all([
      this.accountAddress.delete(keys.accountAddress),
      this.address.reward(keys.address),
      this.account.reward(keys.account),
    ]);
  }

  /** A wrong password (or a disabled account): the attempt stays counted as a failure. */
  failed(email: string, clientAddress: string | undefined): void {
    this.settled(email, clientAddress);
  }

  /** A check that could not finish (no hash slot, an error): not a failure, its count given back. */
  async abandoned(email: string, clientAddress: string | undefined): Promise<void> {
    this.settled(email, clientAddress);
    await Promise.all(this.counted(email, clientAddress).map(([limiter, key]) => limiter.reward(key)));
  }

  private settled(email: string, clientAddress: string | undefined): void {
    for (const [, key] of this.counted(email, clientAddress)) {
      const left = (this.inFlight.get(key) ?? 1) - 1;
      if (left > 0) this.inFlight.set(key, left);
      else this.inFlight.delete(key);
    }
  }

  private counted(email: string, clientAddress: string | undefined): [RateLimiterAbstract, string, Throttled['limit']][] {
    const keys = this.keys(email, clientAddress);
    return [
      [this.address, keys.address, 'address'],
      [this.accountAddress, keys.accountAddress, 'account-address'],
      [this.account, keys.account, 'account'],
    ];
  }

  private keys(email: string, clientAddress: string | undefined): { account: string; address: string; accountAddress: string } {
    const account = email.toLowerCase();
    const address = addressKey(clientAddress ?? 'unknown');
    return { account, address, accountAddress: `${address} ${account}` };
  }
}

/** An IPv6 client usually holds a whole /64: counted as one address. IPv4-mapped addresses as IPv4. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
