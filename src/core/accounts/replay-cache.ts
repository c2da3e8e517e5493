import { createHash } from 'node:crypto';

/** What `remember` found: a new key (now held), one held already, or no room in the owner's share. */
export type ReplayOutcome = 'fresh' | 'replayed' | 'full';

/**
 * Keys seen once (client assertion ids), each held until its expiry, charged to an owner (the
 * client's organisation) with a bound per owner: one owner's clients filling their share leave every
 * other owner's untouched. A key is held as the first 16 bytes of its SHA-256 (a flat 16-character
 * string) and its expiry in whole seconds (a small integer), a fraction of the key as sent (the
 * figures: bench/results/2026-12-07-comment-figures.md); two keys sharing 128 bits would only make one client send a fresh assertion.
 */
export class ReplayCache {
  private readonly owners = new Map<string, Map<string, number>>();
  /**
   * When each owner's full share was last swept (seconds): at most once a second, so a flood pays no
   * sweep per request. Expiries are whole seconds, so a second's one sweep already removed all it could.
   */
  private readonly swept = new Map<string, number>();

  constructor(private readonly perOwner: number) {}

  /** `expiry` and `now` in milliseconds. */
  remember(owner: string, key: string, expiry: number, now: number): ReplayOutcome {
    const digest = createHash('sha256').update(key).digest().toString('latin1', 0, 16);
    const nowSeconds = Math.floor(now / 1000);
    let held = this.owners.get(owner);
    const until = held?.get(digest);
    if (until !== undefined && until > nowSeconds) return 'replayed';
    if (!held) this.owners.set(owner, (held = new Map()));
    if (held.size >= this.perOwner) {
      // Only when an owner's share is full: its expired entries go, a walk of its share at most.
      if ((this.swept.get(owner) ?? -1) >= nowSeconds) return 'full';
      this.swept.set(owner, nowSeconds);
      for (const [k, exp] of held) if (exp <= nowSeconds) held.delete(k);
      if (held.size >= this.perOwner) return 'full';
    }
    held.set(digest, Math.ceil(expiry / 1000));
    return 'fresh';
  }

  /** Keys held for an owner, expired or not (tests and metrics). */
  size(owner: string): number {
    return this.owners.get(owner)?.size ?? 0;
  }
}
