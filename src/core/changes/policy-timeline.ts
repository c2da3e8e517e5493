import { CoverageRule, type CoveragePolicy } from '../policy/coverage.js';
import { registered } from '../policy/coverage-policies.js';
import { compare, type ChangeEntry, type PolicyEntry, type Position } from './change-entry.js';

const NO_POLICIES = new CoverageRule([]);

const keyOf = (at: Position): string => `${at.seq}-${at.sub}`;

/**
 * The journal's policy entries in journal order, with the coverage rule in force after each (made
 * from the policies held, which costs their number, not their size). It grows with policy changes,
 * never with consignments, so every layer of the change index keeps it in memory. Entries are known
 * by position, so one read back from a table is the entry appended.
 */
export class PolicyTimeline {
  private readonly entries: PolicyEntry[] = [];
  private readonly rules = new Map<string, CoverageRule>();
  /** The policies in force after the last entry applied, by policy id. */
  private readonly inForce = new Map<string, CoveragePolicy[]>();
  /** Entries not applied yet, in journal order: the first is still being read, the rest wait for it. */
  private readonly pending: PolicyEntry[] = [];
  private readonly unread = new Set<string>();

  /** `applied` is told each entry once its policies are known, in journal order (a table writes it then). */
  constructor(private readonly applied?: (entry: PolicyEntry) => void) {}

  /** The first entry whose policies are not known yet: walks stop at it. */
  get firstHeld(): PolicyEntry | undefined {
    return this.pending[0];
  }

  /** Appends an entry; one whose policies are still being read (`read` false) holds walks at it until resolve(). */
  append(entry: PolicyEntry, read = true): void {
    this.entries.push(entry);
    this.pending.push(entry);
    if (!read) this.unread.add(keyOf(entry.at));
    this.applyPending();
  }

  /** A held entry has its policies now: walks go on past it. */
  resolve(entry: PolicyEntry): void {
    this.unread.delete(keyOf(entry.at));
    this.applyPending();
  }

  isHeld(entry: ChangeEntry): boolean {
    return entry.kind === 'policies' && !this.rules.has(keyOf(entry.at));
  }

  /** The ids of the policies in force at the end of the journal (once no entry is held). */
  policiesInForce(): ReadonlySet<string> {
    return new Set(this.inForce.keys());
  }

  private applyPending(): void {
    while (this.pending.length > 0 && !this.unread.has(keyOf(this.pending[0]!.at))) {
      const entry = this.pending.shift()!;
      if (entry.policies) this.inForce.clear();
      for (const id of entry.withdrawn ?? []) this.inForce.delete(id);
      for (const policy of [...(entry.policies ?? []), ...(entry.registered ?? [])]) this.inForce.set(policy.id, []);
      // A policy of several roles is one fact a role, under one id.
      for (const policy of [...(entry.policies ?? []), ...(entry.registered ?? [])])
        this.inForce.get(policy.id)!.push(...registered(policy));
      this.rules.set(keyOf(entry.at), new CoverageRule([...this.inForce.values()].flat()));
      this.applied?.(entry);
    }
  }

  /** The policies in force just before `at` (for a policy entry's own position, before it changed them). */
  ruleBefore(at: Position): CoverageRule {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(this.entries[mid]!.at, at) < 0) lo = mid + 1;
      else hi = mid;
    }
    const p = lo === 0 ? undefined : this.entries[lo - 1];
    return p === undefined ? NO_POLICIES : (this.rules.get(keyOf(p.at)) ?? NO_POLICIES);
  }

  ruleOf(entry: PolicyEntry): CoverageRule {
    return this.rules.get(keyOf(entry.at)) ?? NO_POLICIES;
  }
}
