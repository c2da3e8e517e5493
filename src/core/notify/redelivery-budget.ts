/** How many redeliveries an organisation may ask for: a burst, refilled evenly over an hour. */
export interface RedeliveryLimits {
  /** The most it may ask for at once (the bucket's size). */
  burst: number;
  /** How many it may ask for an hour, on average (the refill). */
  perHour: number;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * A token bucket per organisation (pure: the clock is passed in). A redelivery only ever goes to the
 * caller's own endpoint, so this bounds what one receiver can make the node send to itself; the
 * deliverer's concurrency bounds the node as a whole.
 */
export class RedeliveryBudget {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly limits: RedeliveryLimits) {}

  /** Takes one redelivery for `organisation` at `now`: 0 when granted, else the ms until one is free. */
  take(organisation: string, now: number): number {
    const { burst, perHour } = this.limits;
    const msPerToken = HOUR_MS / perHour;
    const bucket = this.buckets.get(organisation) ?? { tokens: burst, at: now };
    const tokens = Math.min(burst, bucket.tokens + Math.max(0, now - bucket.at) / msPerToken);
    if (tokens < 1) {
      this.buckets.set(organisation, { tokens, at: now });
      return Math.ceil((1 - tokens) * msPerToken);
    }
    this.buckets.set(organisation, { tokens: tokens - 1, at: now });
    return 0;
  }

  /** Gives back a redelivery that was taken but not made (nothing to deliver again). */
  giveBack(organisation: string): void {
    const bucket = this.buckets.get(organisation);
    if (bucket) bucket.tokens = Math.min(this.limits.burst, bucket.tokens + 1);
  }
}
