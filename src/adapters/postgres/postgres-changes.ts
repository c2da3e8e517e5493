import type pg from 'pg';
import { compare, type ChangeEntry, type DataEntry, type PolicyEntry, type Position } from '../../core/changes/change-entry.js';
import type { ChangeJournal } from '../../core/changes/change-journal.js';
import type { Candidate, ChangeSource } from '../../core/ports/change-source.js';
import { PolicyTimeline } from '../../core/changes/policy-timeline.js';
import type { CoverageTarget } from '../../core/policy/coverage.js';
import { statement } from './statements.js';

/** Sequence numbers a page of the catch-up covers on a store without a row cap of its own. */
const CATCH_UP_PAGE_SEQS = 10_000;

interface TargetRow {
  owner: string | null;
  global_id: string | null;
  routes: string[] | null;
}

const rowOf = (entry: ChangeEntry) => ({
  seq: entry.at.seq,
  sub: entry.at.sub,
  kind: entry.kind,
  consignment: entry.kind === 'data' ? entry.consignment : null,
  routes: entry.kind === 'data' && entry.routes !== undefined ? [...entry.routes] : null,
  entry,
  owner: entry.kind === 'data' ? entry.owner : null,
  global_id: entry.kind === 'data' ? entry.globalId : null,
});

/**
 * The change feed's index in PostgreSQL, for a replica set (docs/replicas.md): every journal entry,
 * the routes data changes set and each consignment's first appearance as tables
 * (deploy/postgres/schema.sql), so a walk reads slices and a replica's memory holds only the policy
 * timeline. Appends are written in commit order, behind one another, and a walk waits for those
 * before it reads. A policy entry is written once its policies are known; until then the walk stops
 * at it as the timeline holds it. The journal itself is in the store: a new writer catches up on the
 * entries after the table's last (a writer that died before writing them), and fills an empty table.
 */
export class PostgresChanges implements ChangeSource {
  readonly timeline = new PolicyTimeline((entry) => {
    // What the load reads is in the table already (or written by it in one statement).
    if (!this.loading) this.write([entry]);
  });
  private loading = false;
  lastAt: Position | undefined;
  size = 0;
  private writes: Promise<void> = Promise.resolve();
  /** Entries waiting for the next write. */
  private queued: ChangeEntry[] = [];

  constructor(
    private readonly pool: pg.Pool,
    /** Told when an append could not be written: this writer's table no longer follows the store it committed to. */
    private readonly diverged: (reason: string) => void,
    /** Runs a write until PostgreSQL answers it (a short outage waits rather than stopping the writer). */
    private readonly retry: <T>(write: () => Promise<T>, what: string) => Promise<T> = (write) => write(),
  ) {}

  async load(journal: ChangeJournal): Promise<void> {
    this.loading = true;
    try {
      await this.catchUp(journal);
    } finally {
      this.loading = false;
    }
  }

  private async catchUp(journal: ChangeJournal): Promise<void> {
    const [last] = (await this.pool.query<{ seq: string; sub: number; size: string }>(statement('change-last'))).rows;
    const known: Position | undefined = last && { seq: Number(last.seq), sub: last.sub };
    for (const { entry } of (await this.pool.query<{ entry: PolicyEntry }>(statement('change-policies'))).rows) this.timeline.append(entry);
    this.lastAt = known;
    this.size = Number(last?.size ?? 0);
    // From the last entry's number: a policy entry after it shares its number.
    await journal.readAfter(known === undefined ? 0 : known.seq - 1, CATCH_UP_PAGE_SEQS, async (entries) => {
      const missing = entries.filter((entry) => !known || compare(entry.at, known) > 0);
      if (missing.length === 0) return;
      await this.pool.query(statement('change-append'), [JSON.stringify(missing.map(rowOf))]);
      for (const entry of missing) {
        if (entry.kind === 'policies') this.timeline.append(entry);
        this.lastAt = entry.at;
      }
      this.size += missing.length;
    });
  }

  append(entry: ChangeEntry, read = true): void {
    const last = this.lastAt;
    if (last && compare(entry.at, last) <= 0)
      throw new Error(`change ${entry.at.seq}-${entry.at.sub} is not after ${last.seq}-${last.sub}`);
    this.lastAt = entry.at;
    this.size++;
    // A policy entry is written by the timeline once its policies are known (at once when they are).
    if (entry.kind === 'policies') this.timeline.append(entry, read);
    else this.write([entry]);
  }

  /**
   * Queues entries for the table in order. Entries queued while a write is under way go together in
   * the next one: a burst of commits costs a statement per round trip, not per entry.
   */
  private write(entries: ChangeEntry[]): void {
    const startsBatch = this.queued.length === 0;
    this.queued.push(...entries);
    if (!startsBatch) return;
    this.writes = this.writes.then(async () => {
      const batch = this.queued.splice(0);
      try {
        await this.retry(() => this.pool.query(statement('change-append'), [JSON.stringify(batch.map(rowOf))]), 'change-journal entries');
      } catch (error) {
        this.diverged(`a change-journal entry could not be written to PostgreSQL: ${(error as Error).message}`);
        throw error;
      }
    });
    this.writes.catch(() => undefined);
  }

  async entriesFrom(at: Position, count: number): Promise<ChangeEntry[]> {
    await this.writes;
    const { rows } = await this.pool.query<{ entry: ChangeEntry }>(statement('change-from'), [at.seq, at.sub, count]);
    const entries = rows.map((row) => row.entry);
    // The first entry still being read is not in the table yet: the walk stops there.
    const held = this.timeline.firstHeld;
    if (!held || compare(held.at, at) < 0) return entries;
    const before = entries.filter((entry) => compare(entry.at, held.at) < 0);
    return before.length < count ? [...before, held] : before;
  }

  async targetsOf(entries: readonly DataEntry[]): Promise<(CoverageTarget | undefined)[]> {
    if (entries.length === 0) return [];
    const { rows } = await this.pool.query<TargetRow>(statement('change-targets'), [
      entries.map((e) => e.consignment),
      entries.map((e) => e.at.seq),
      entries.map((e) => e.at.sub),
    ]);
    return rows.map(targetOf);
  }

  async candidates(entry: PolicyEntry, owners: readonly string[], from: number, count: number): Promise<Candidate[]> {
    await this.writes;
    const { rows } = await this.pool.query<TargetRow>(statement('change-candidates'), [owners, entry.at.seq, entry.at.sub, from, count]);
    return rows.map((row) => ({ globalId: row.global_id!, target: targetOf(row)! }));
  }
}

const targetOf = (row: TargetRow): CoverageTarget | undefined =>
  row.owner === null || row.global_id === null
    ? undefined
    : { owner: row.owner, globalId: row.global_id, locations: new Set(row.routes ?? []) };
