/**
 * The time as the node reads it: what it stamps on activity-log entries, records, policies and the
 * change journal, and the idempotency window's now. One port, handed out by the composition root
 * (src/node.ts), so a test holds the time still through the same door the node reads it by. The
 * signal deliverers schedule attempts against real timers (setTimeout), so they keep elapsed
 * milliseconds of their own: a clock held still would never let a retry come due.
 */
export interface Clock {
  now(): Date;
}

/** The machine's time. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands at one instant until it is set or moved on: tests' clock. */
export class FixedClock implements Clock {
  private at: number;

  constructor(at: Date | string) {
    this.at = new Date(at).getTime();
  }

  now(): Date {
    return new Date(this.at);
  }

  set(at: Date | string): void {
    this.at = new Date(at).getTime();
  }

  advance(ms: number): void {
    this.at += ms;
  }
}
