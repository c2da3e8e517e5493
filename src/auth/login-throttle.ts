import { TooManyRequests } from '../http/errors.js';

interface Window {
  failures: number;
  until: number;
}

/**
 * Slows password guessing: after `maxFailures` wrong passwords for one email, further attempts are
 * refused for a lockout that doubles with each further failure, up to an hour. Keyed by email only:
 * many users behind one proxy address must not lock each other out.
 */
export class LoginThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly maxFailures = 10, private readonly baseLockMs = 1000, private readonly now: () => number = Date.now) {}

  private keys(email: string): string[] {
    return [email.toLowerCase()];
  }

  check(email: string): void {
    const t = this.now();
    for (const key of this.keys(email)) {
      const w = this.windows.get(key);
      if (w && w.until > t) throw new TooManyRequests('Too many failed logins; try again later', Math.ceil((w.until - t) / 1000));
    }
  }

  failed(email: string): void {
    const t = this.now();
    for (const key of this.keys(email)) {
      const w = this.windows.get(key) ?? { failures: 0, until: 0 };
      w.failures += 1;
      const over = w.failures - this.maxFailures;
      if (over >= 0) w.until = t + Math.min(this.baseLockMs * 2 ** over, 3_600_000);
      this.windows.set(key, w);
    }
    if (this.windows.size > 100_000) this.windows.clear();
  }

  succeeded(email: string): void {
    this.windows.delete(this.keys(email)[0]);
  }
}
