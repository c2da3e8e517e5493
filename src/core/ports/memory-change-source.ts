import type { CoverageTarget } from '../policy/coverage.js';
import { compare, type ChangeEntry, type DataEntry, type PolicyEntry, type Position } from '../changes/change-entry.js';
import { nextPolicyPosition, type Candidate, type ChangeSource } from './change-source.js';
import { PolicyTimeline } from '../changes/policy-timeline.js';
import type { ChangeJournal } from '../changes/change-journal.js';
import { nextTurn } from '../util/next-turn.js';

// Entries indexed between two turns of the event loop at start.
const APPEND_SLICE = 5000;

/** A consignment as the journal has seen it: its route at each change that set one. */
export interface Track {
  consignment: string;
  globalId: string;
  owner: string;
  /** Where it entered the journal. */
  first: Position;
  routes: { at: Position; locations: ReadonlySet<string> }[];
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
 * The journal in memory, in journal order (a single node's change index): each consignment's route
 * at each change that set one, and its owner's consignments in order of first appearance, beside the
 * policy timeline. Appended to in commit order by the change feed's follower; never rewritten.
 */
export class ChangeIndex implements ChangeSource {
  readonly entries: ChangeEntry[] = [];
  readonly timeline = new PolicyTimeline();
  private readonly tracks = new Map<string, Track>();
  private readonly byOwner = new Map<string, Track[]>();

  get lastAt(): Position | undefined {
    return this.entries.at(-1)?.at;
  }

  get size(): number {
    return this.entries.length;
  }

  nextPolicyPosition(): Position {
    return nextPolicyPosition(this);
  }

  /** Every entry of the journal, appended in slices that yield to the event loop. */
  async load(journal: ChangeJournal): Promise<void> {
    const entries = await journal.readAll();
    for (let i = 0; i < entries.length; i++) {
      this.append(entries[i]!);
      if (i % APPEND_SLICE === APPEND_SLICE - 1) await nextTurn();
    }
  }

  append(entry: ChangeEntry, read = true): void {
    const last = this.lastAt;
    if (last && compare(entry.at, last) <= 0)
      throw new Error(`change ${entry.at.seq}-${entry.at.sub} is not after ${last.seq}-${last.sub}`);
    this.entries.push(entry);
    if (entry.kind === 'policies') this.timeline.append(entry, read);
    else this.track(entry);
  }

  *entriesFrom(at: Position): Generator<ChangeEntry> {
    for (let i = lastAtOrBefore(this.entries, (e) => e.at, at, true) + 1; i < this.entries.length; i++) yield this.entries[i]!;
  }

  async targetsOf(entries: readonly DataEntry[]): Promise<(CoverageTarget | undefined)[]> {
    return entries.map((entry) => {
      const track = this.tracks.get(entry.consignment);
      return track && target(track, entry.at, false);
    });
  }

  /** A view over the owners' lists, not a copy: a page that resumes inside a large policy change costs no more than its items. */
  *candidates(entry: PolicyEntry, owners: readonly string[], from: number): Generator<Candidate> {
    let skip = from;
    for (const owner of owners) {
      const list = this.byOwner.get(owner) ?? [];
      const count = lastAtOrBefore(list, (t) => t.first, entry.at, true) + 1;
      if (skip >= count) {
        skip -= count;
        continue;
      }
      for (let k = skip; k < count; k++) yield { globalId: list[k]!.globalId, target: target(list[k]!, entry.at, true) };
      skip = 0;
    }
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

/** A consignment as the coverage rule reads it at `at` (its route as the last change at or before it left it; before it when `strict`). */
function target(track: Track, at: Position, strict: boolean): CoverageTarget {
  const v = lastAtOrBefore(track.routes, (r) => r.at, at, strict);
  return { owner: track.owner, globalId: track.globalId, locations: v < 0 ? new Set() : track.routes[v]!.locations };
}
