import type { Batch } from './consignment-catalog.js';
import type { CoverageTarget } from '../policy/coverage.js';
import type { ChangeEntry, DataEntry, PolicyEntry, Position } from '../changes/change-entry.js';
import type { ChangeJournal } from '../changes/change-journal.js';
import type { PolicyTimeline } from '../changes/policy-timeline.js';

/** A consignment a policy change may have made visible or invisible, as the rule reads it just before the change. */
export interface Candidate {
  globalId: string;
  target: CoverageTarget;
}

/**
 * The change journal as the feed's walk reads it (change-walk.ts), one owner of it in two layers: in
 * memory for a single node (memory-change-source.ts), in PostgreSQL for a replica set
 * (adapters/postgres/postgres-changes.ts), where no replica's memory grows with the changes. Both keep the
 * policy entries' timeline in memory (it grows with policy changes only). Appended to in commit order
 * by the change feed's follower; never rewritten.
 */
export interface ChangeSource {
  readonly timeline: PolicyTimeline;
  /** Where the last entry appended is. */
  readonly lastAt: Position | undefined;
  /** How many entries the journal holds (for tests and the bench). */
  readonly size: number;
  /** Reads the journal as stored (the memory layer), or catches up on it (a table that has most of it). */
  load(journal: ChangeJournal): Promise<void>;
  /** Appends an entry; a policy entry whose policies are still being read (`read` false) holds walks at it until the timeline resolves it. */
  append(entry: ChangeEntry, read?: boolean): void;
  /** Entries at or after `at`, in journal order: as many as asked for, unless the journal ends first. */
  entriesFrom(at: Position, count: number): Batch<ChangeEntry>;
  /** Each data entry's consignment as the rule reads it at that entry (its route as the last change at or before it left it); undefined for one the journal does not know. */
  targetsOf(entries: readonly DataEntry[]): Promise<(CoverageTarget | undefined)[]>;
  /**
   * From the `from`-th on, the consignments of `owners` the journal knew before the policy entry, in
   * a fixed order (owner, then first appearance), so a cursor into them stays valid; each as the rule
   * reads it just before the entry. As many as asked for, unless there are fewer.
   */
  candidates(entry: PolicyEntry, owners: readonly string[], from: number, count: number): Batch<Candidate>;
}

/** Where the next policy change goes: after the last data change published, after any policy change since. */
export const nextPolicyPosition = (source: ChangeSource): Position => {
  const last = source.lastAt;
  return last === undefined ? { seq: 0, sub: 1 } : { seq: last.seq, sub: last.sub + 1 };
};
