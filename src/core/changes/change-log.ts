import type { Principal } from '../auth/principal.js';
import { acceptedIn, type ChangeNote, type PolicyFacts } from '../catalog/change-notes.js';
import type { NodeChange } from '../store/change-feed.js';
import type { Logger } from '../logger.js';
import type { CoveragePolicy } from '../policy/coverage.js';
import { coverageSubject } from '../policy/coverage-subject.js';
import type { QueryBank } from '../queries/query-bank.js';
import type { QuadStore } from '../ports/quad-store.js';
import { compare, type PolicyEntry, type Position } from './change-entry.js';
import { ChangeContributor } from './change-contributor.js';
import type { Cursor } from './change-cursor.js';
import { ChangeIndex } from '../ports/memory-change-source.js';
import { nextPolicyPosition, type ChangeSource } from '../ports/change-source.js';
import { ChangeJournal } from './change-journal.js';
import { walk, type WalkLimits, type WalkResult } from './change-walk.js';
import { stamp } from '../rdf/date-times.js';
import { systemClock, type Clock } from '../ports/clock.js';

export interface ChangeLogDeps {
  store: QuadStore;
  queries: QueryBank;
  logger: Logger;
  /** The policies in force, by id (core/policy/coverage-policies.ts CoveragePolicies, which follows every change). */
  coverage: { inForce(): Promise<ReadonlyMap<string, readonly CoveragePolicy[]>> };
  /** The node's publication sequence (core/catalog/sequence.ts), handed out under the ingest lock. */
  allocateSeq: () => number;
  /** The journal's index: in memory unless given (a replica set's, in PostgreSQL). */
  source?: ChangeSource;
  /** The time stamped on the journal's entries. */
  clock?: Clock;
}

/**
 * The change feed's record and its reader: the journal (what changed, in commit order, stored with
 * the changes themselves) and the index over it in memory. Data changes are journaled by the
 * contributor in their own commit; a policy change, by this follower right after it is published
 * (its position is fixed at once; a walk waits at it until its policies are read and written).
 */
export class ChangeLog {
  readonly contributor: ChangeContributor;
  private readonly journal: ChangeJournal;
  private readonly index: ChangeSource;
  private readonly now: () => Date;
  private loaded: Promise<void> | undefined;
  /** Changes published while the journal was read: taken in order once it is. */
  private early: NodeChange[] | undefined = [];
  /** Policy entries are read and written one after another, in journal order. */
  private policyWrites: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ChangeLogDeps) {
    this.journal = new ChangeJournal(deps.store, deps.queries);
    this.index = deps.source ?? new ChangeIndex();
    this.contributor = new ChangeContributor(this.journal, deps.allocateSeq);
    const clock = deps.clock ?? systemClock;
    this.now = () => clock.now();
  }

  /** Reads the journal without waiting for it; ready() waits. */
  startLoading(): void {
    this.loaded = this.load();
    this.loaded.catch((error: unknown) => this.deps.logger.error('could not read the change journal', { error: (error as Error).message }));
  }

  async ready(): Promise<void> {
    await this.loaded;
  }

  /** Resolves once the policy entries noted so far are written. */
  async settled(): Promise<void> {
    await this.policyWrites;
  }

  /** The change-feed follower: synchronous, in commit order. */
  follow(committed: NodeChange): void {
    if (this.early) this.early.push(committed);
    else this.take(committed);
  }

  /** Journals what a published commit changed; data entries at or before `known` are in the journal already. */
  private take(committed: NodeChange, known?: Position): void {
    for (const { entry } of acceptedIn(committed)) {
      const data = this.contributor.take(entry);
      if (data && (!known || compare(data.at, known) > 0)) this.index.append(data);
    }
    for (const note of committed.notes) if (note.kind === 'policies') this.policiesChanged(note);
  }

  /** One page of the feed for `principal` from `from`. */
  async page(principal: Principal, from: Cursor, limits: WalkLimits): Promise<WalkResult> {
    await this.ready();
    return walk(this.index, coverageSubject(principal), from, limits);
  }

  /** The cursor at the journal's present end. */
  async end(): Promise<Cursor> {
    await this.ready();
    const last = this.index.lastAt;
    return last ? { ...last, idx: 2 ** 31 } : { seq: 0, sub: 0, idx: 0 };
  }

  /** How many entries the journal holds (for tests and the bench). */
  get size(): number {
    return this.index.size;
  }

  /**
   * Journals the policies in force at start when they are not the journal's last word on them (the
   * seed's, applied before any follower, or a change whose entry a stop lost), at a fresh number of
   * the sequence: before anything this process writes. Awaited by the start before writes are taken.
   */
  async reconcile(): Promise<void> {
    const inForce = await this.deps.coverage.inForce();
    const journaled = await this.journal.policiesJournaled();
    const withdrawn = [...journaled].filter((id) => !inForce.has(id));
    const registered = [...inForce].filter(([id]) => !journaled.has(id)).flatMap(([id, policies]) => policies.map((p) => factsOf(id, p)));
    if (withdrawn.length === 0 && registered.length === 0) return;
    await this.journal.appendPolicies({
      kind: 'policies',
      at: { seq: this.deps.allocateSeq(), sub: 1 },
      published: stamp(this.now()),
      registered,
      withdrawn,
    });
  }

  private async load(): Promise<void> {
    await this.index.load(this.journal);
    const known = this.index.lastAt;
    const early = this.early ?? [];
    this.early = undefined;
    // A commit published while the journal was read may be in what was read already.
    for (const committed of early) this.take(committed, known);
    await this.policyWrites;
  }

  /**
   * A policy change's entry: what its writer said it did (the cost of the policies it changed), or,
   * when it did not say, every policy in force, read before walks go past it. Entries are written one
   * after another, in journal order.
   */
  private policiesChanged(note: Extract<ChangeNote, { kind: 'policies' }>): void {
    const entry: PolicyEntry = { kind: 'policies', at: nextPolicyPosition(this.index), published: stamp(this.now()) };
    const described = note.registered !== undefined || note.withdrawn !== undefined;
    if (note.registered) entry.registered = note.registered.map((p) => factsOf(p.id, p));
    if (note.withdrawn) entry.withdrawn = [...note.withdrawn];
    this.index.append(entry, described);
    this.policyWrites = this.policyWrites
      .then(async () => {
        if (!described) {
          const inForce = await this.deps.coverage.inForce();
          entry.policies = [...inForce].flatMap(([id, policies]) => policies.map((p) => factsOf(id, p)));
          this.index.timeline.resolve(entry);
        }
        await this.journal.appendPolicies(entry);
      })
      .catch((error: unknown) => this.deps.logger.error('could not journal a policy change', { error: (error as Error).message }));
  }
}

/** A policy as the journal records it: its facts only (not the sets the rule makes of them). */
const factsOf = (id: string, p: Omit<PolicyFacts, 'id'>): PolicyFacts => ({
  id,
  owner: p.owner,
  role: p.role,
  countries: p.countries,
  locations: p.locations,
  consignments: p.consignments,
});
