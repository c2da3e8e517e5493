/** What `remember` found: a new key (now held), one held already, or no room in the owner's share. */
export type ReplayOutcome = 'fresh' | 'replayed' | 'full';

/**
 * Keys seen once (client assertion ids), each held until its expiry, charged to an owner (the
 * client's organisation) with a bound per owner: one owner's clients filling their share leave every
 * other owner's untouched. Memory is at most the bound times the owners, ~150 bytes an entry.
 */
export class ReplayCache {
  private readonly owners = new Map<string, Map<string, number>>();

  constructor(private readonly perOwner: number) {}

  remember(owner: string, key: string, expiry: number, now: number): ReplayOutcome {
    let held = this.owners.get(owner);
    const until = held?.get(key);
    if (until !== undefined && until > now) return 'replayed';
    if (!held) this.owners.set(owner, (held = new Map()));
    if (held.size >= this.perOwner) {
      // Only when an owner's share is full: its expired entries go (at most the bound, ~1 ms at 10,000).
      for (const [k, exp] of held) if (exp <= now) held.delete(k);
      if (held.size >= this.perOwner) return 'full';
    }
    held.set(key, expiry);
    return 'fresh';
  }

  /** Keys held for an owner, expired or not (tests and metrics). */
  size(owner: string): number {
    return this.owners.get(owner)?.size ?? 0;
  }
}
