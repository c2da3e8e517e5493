import { CoverageRule, type CoveragePolicy, type CoverageTarget } from '../policy/coverage.js';
import { registered } from '../policy/coverage-policies.js';
import type { CoverageSubject } from '../policy/coverage-subject.js';
import { compare, type ChangeEntry, type DataEntry, type PolicyEntry, type Position } from './change-entry.js';

/** A consignment as the journal has seen it: its route at each change that set one. */
export interface Track {
  consignment: string;
  globalId: string;
  owner: string;
  /** Where it entered the journal. */
  first: Position;
  routes: { at: Position; locations: ReadonlySet<string> }[];
}

const NO_POLICIES = new CoverageRule([]);

/** The consignments a policy change may have made visible or invisible, by position. */
export interface Candidates {
  length: number;
  at(k: number): Track;
}

/** The last index in `items` whose position is at or before `at` (before it when `strict`), or -1. */
function lastAtOrBefore<T>(items: readonly T[], positionOf: (item: T) => Position, at: Position, strict: boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compare(positionOf(items[mid]!), at);
    if (c < 0 || (c === 0 && !strict)) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * The journal in memory, in journal order, with what deciding visibility at any point of it needs:
 * the policies in force there (a coverage rule per policy entry, made from the policies held, which
 * costs their number, not their size) and each consignment's route there. Appended to in commit order
 * by the change feed's follower; never rewritten.
 */
export class ChangeIndex {
  readonly entries: ChangeEntry[] = [];
  private readonly policyAt: number[] = [];
  private readonly rules = new Map<PolicyEntry, CoverageRule>();
  private readonly tracks = new Map<string, Track>();
  private readonly byOwner = new Map<string, Track[]>();
  /** The policies in force after the last policy entry applied, by policy id. */
  private readonly inForce = new Map<string, CoveragePolicy[]>();
  /** Policy entries not applied yet, in journal order: the first is still being read, the rest wait for it. */
  private readonly pending: PolicyEntry[] = [];
  private readonly unread = new Set<PolicyEntry>();

  get last(): ChangeEntry | undefined {
    return this.entries.at(-1);
  }

  /** Where the next policy change goes: after the last data change published, after any policy change since. */
  nextPolicyPosition(): Position {
    const last = this.last;
    return last === undefined ? { seq: 0, sub: 1 } : { seq: last.at.seq, sub: last.at.sub + 1 };
  }

  /** Appends an entry; a policy entry whose policies are still being read (`read` false) holds walks at it until resolve(). */
  append(entry: ChangeEntry, read = true): void {
    const last = this.last;
    if (last && compare(entry.at, last.at) <= 0)
      throw new Error(`change ${entry.at.seq}-${entry.at.sub} is not after ${last.at.seq}-${last.at.sub}`);
    this.entries.push(entry);
    if (entry.kind === 'policies') {
      this.policyAt.push(this.entries.length - 1);
      this.pending.push(entry);
      if (!read) this.unread.add(entry);
      this.applyPending();
    } else this.track(entry);
  }

  /** A held policy entry has its policies now: walks go on past it. */
  resolve(entry: PolicyEntry): void {
    this.unread.delete(entry);
    this.applyPending();
  }

  isHeld(entry: ChangeEntry): boolean {
    return entry.kind === 'policies' && !this.rules.has(entry);
  }

  /** The ids of the policies in force at the end of the journal (once no entry is held). */
  policiesInForce(): ReadonlySet<string> {
    return new Set(this.inForce.keys());
  }

  private applyPending(): void {
    while (this.pending.length > 0 && !this.unread.has(this.pending[0]!)) {
      const entry = this.pending.shift()!;
      if (entry.policies) this.inForce.clear();
      for (const id of entry.withdrawn ?? []) this.inForce.delete(id);
      for (const policy of [...(entry.policies ?? []), ...(entry.registered ?? [])]) this.inForce.set(policy.id, []);
      // A policy of several roles is one fact a role, under one id.
      for (const policy of [...(entry.policies ?? []), ...(entry.registered ?? [])])
        this.inForce.get(policy.id)!.push(...registered(policy));
      this.rules.set(entry, new CoverageRule([...this.inForce.values()].flat()));
    }
  }

  /** The policies in force just before entry `i` (for a policy entry, before it changed them). */
  ruleBefore(i: number): CoverageRule {
    let lo = 0;
    let hi = this.policyAt.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.policyAt[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    const p = lo === 0 ? undefined : this.entries[this.policyAt[lo - 1]!];
    return p === undefined ? NO_POLICIES : (this.rules.get(p as PolicyEntry) ?? NO_POLICIES);
  }

  ruleOf(entry: PolicyEntry): CoverageRule {
    return this.rules.get(entry) ?? NO_POLICIES;
  }

  /** The first entry at or after `at`. */
  firstAtOrAfter(at: Position): number {
    return lastAtOrBefore(this.entries, (e) => e.at, at, true) + 1;
  }

  /** A consignment as the coverage rule reads it at `at` (its route as the last change at or before it left it). */
  target(track: Track, at: Position, strict: boolean): CoverageTarget {
    const v = lastAtOrBefore(track.routes, (r) => r.at, at, strict);
    return { owner: track.owner, globalId: track.globalId, locations: v < 0 ? new Set() : track.routes[v]!.locations };
  }

  trackOf(consignment: string): Track | undefined {
    return this.tracks.get(consignment);
  }

  /**
   * The consignments whose visibility to `subject` a policy entry may change: those of the owners
   * whose grants to it differ before and after, that the journal knew before the entry, in a fixed
   * order (owner, then first appearance), so a cursor into them stays valid. A view over the owners'
   * lists, not a copy: a page that resumes inside a large policy change costs no more than its items.
   */
  candidates(i: number, subject: CoverageSubject): Candidates {
    const entry = this.entries[i] as PolicyEntry;
    const before = this.ruleBefore(i).grants(subject);
    const after = this.ruleOf(entry).grants(subject);
    const owners = new Set<string>();
    for (const g of [...before, ...after]) owners.add(g.owner);
    const changed = [...owners].filter((o) => o !== subject.org && grantsOf(before, o) !== grantsOf(after, o)).sort();
    const parts = changed.map((owner) => {
      const list = this.byOwner.get(owner) ?? [];
      return { list, count: lastAtOrBefore(list, (t) => t.first, entry.at, true) + 1 };
    });
    return {
      length: parts.reduce((n, p) => n + p.count, 0),
      at: (k: number): Track => {
        for (const part of parts) {
          if (k < part.count) return part.list[k]!;
          k -= part.count;
        }
        throw new RangeError(`candidate ${k} past the end`);
      },
    };
  }

  private track(entry: DataEntry): void {
    let track = this.tracks.get(entry.consignment);
    if (!track) {
      track = { consignment: entry.consignment, globalId: entry.globalId, owner: entry.owner, first: entry.at, routes: [] };
      this.tracks.set(entry.consignment, track);
      const list = this.byOwner.get(entry.owner);
      if (list) list.push(track);
      else this.byOwner.set(entry.owner, [track]);
    }
    if (entry.routes !== undefined) track.routes.push({ at: entry.at, locations: new Set(entry.routes) });
  }
}

const grantsOf = (grants: readonly { owner: string }[], owner: string): string =>
  JSON.stringify(
    grants.filter((g) => g.owner === owner),
    (_k, v: unknown) => (v instanceof Set ? [...v].sort() : v),
  );
