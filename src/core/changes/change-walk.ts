import type { CoverageSubject } from '../policy/coverage-subject.js';
import { nextTurn } from '../util/next-turn.js';
import type { CoverageTarget, Grant } from '../policy/coverage.js';
import { compare, type DataChange, type DataEntry, type PolicyEntry, type Position } from './change-entry.js';
import type { Cursor } from './change-cursor.js';
import type { ChangeSource } from '../ports/change-source.js';
import type { PolicyTimeline } from './policy-timeline.js';

export type VisibilityChange = 'became-visible' | 'became-invisible';

/** One change the reader may see. */
export interface FeedItem {
  /** The cursor just past this item. */
  after: Cursor;
  change: DataChange | VisibilityChange;
  published: string;
  globalId: string;
  typeCode?: string;
  revision?: number;
}

export interface WalkLimits {
  /** Items in a page. */
  items: number;
  /** Changes looked at in one request (seen or not): past it the page ends early, with a next. */
  examine: number;
  /** Changes looked at between two turns of the event loop. */
  slice: number;
}

export interface WalkResult {
  items: FeedItem[];
  next: Cursor;
  /** Whether the walk reached the end of the journal as it stood (nothing more to read yet). */
  atEnd: boolean;
}

const DONE = 2 ** 31;

/**
 * Walks the journal from `from` for `subject`, deciding each change with the policies in force at
 * that point and the consignment's route there (the same coverage rule as every read): a data change
 * shows when the subject could read its consignment then; a policy change shows, for each
 * consignment it made readable or unreadable, that it became so. Nothing else about a consignment
 * it could not read then is told. Bounded: at most `limits.examine` changes are looked at, asked of
 * the source a slice at a time, with a turn of the event loop between slices.
 */
export async function walk(source: ChangeSource, subject: CoverageSubject, from: Cursor, limits: WalkLimits): Promise<WalkResult> {
  const { timeline } = source;
  const items: FeedItem[] = [];
  let examined = 0;
  const full = () => items.length >= limits.items || examined >= limits.examine;
  /** Where the walk stands: the entry it looks at next, from its `idx`-th item. */
  let at: Position = { seq: from.seq, sub: from.sub };
  let idx = from.idx;
  /** The last entry looked at whole: a walk that ends after it resumes past it. */
  let past: Position | undefined;
  for (;;) {
    if (full()) break;
    const batch = [...(await source.entriesFrom(at, limits.slice))];
    if (batch.length === 0) break;
    // The first entry resumes from the cursor's item only if it is the cursor's entry.
    if (compare(batch[0]!.at, at) !== 0) idx = 0;
    const data = batch.filter((e): e is DataEntry => e.kind === 'data');
    const targets = new Map(zip(data, await source.targetsOf(data)));
    for (const entry of batch) {
      if (full()) return { items, next: { ...entry.at, idx }, atEnd: false };
      if (entry.kind === 'policies' && timeline.isHeld(entry)) return { items, next: { ...entry.at, idx }, atEnd: true };
      if (entry.kind === 'data') {
        if (idx === 0) {
          examined++;
          const item = dataItem(timeline, subject, entry, targets.get(entry));
          if (item) items.push(item);
        }
      } else {
        idx = await policyItems(source, subject, entry, idx, items, limits, () => {
          examined++;
          return full();
        });
        if (idx >= 0) return { items, next: { ...entry.at, idx }, atEnd: false };
      }
      past = entry.at;
      idx = 0;
      at = { seq: entry.at.seq, sub: entry.at.sub + 1 };
    }
    if (batch.length < limits.slice) return { items, next: past ? { ...past, idx: DONE } : from, atEnd: true };
    await nextTurn();
  }
  // Stopped full at a slice's end, or at the journal's end: the next entry is where to go on, if there is one.
  const [next] = [...(await source.entriesFrom(at, 1))];
  if (next) return { items, next: { ...next.at, idx: 0 }, atEnd: false };
  return { items, next: past ? { ...past, idx: DONE } : from, atEnd: true };
}

/**
 * The visibility items of a policy entry from its `idx`-th candidate, until `examine` says the page
 * is full: -1 when every candidate was looked at, else where the next page resumes in it.
 */
async function policyItems(
  source: ChangeSource,
  subject: CoverageSubject,
  entry: PolicyEntry,
  idx: number,
  items: FeedItem[],
  limits: WalkLimits,
  examine: () => boolean,
): Promise<number> {
  const before = source.timeline.ruleBefore(entry.at);
  const after = source.timeline.ruleOf(entry);
  const owners = changedOwners(subject, before.grants(subject), after.grants(subject));
  if (owners.length === 0) return -1;
  for (let k = idx; ;) {
    const batch = [...(await source.candidates(entry, owners, k, limits.slice))];
    for (const { globalId, target } of batch) {
      const was = before.covers(subject, target);
      if (was !== after.covers(subject, target)) {
        items.push({
          after: { ...entry.at, idx: k + 1 },
          change: was ? 'became-invisible' : 'became-visible',
          published: entry.published,
          globalId,
        });
      }
      k++;
      if (examine()) return k;
    }
    if (batch.length < limits.slice) return -1;
    await nextTurn();
  }
}

/** The owners other than the subject whose grants to it differ before and after a policy change, in a fixed order. */
function changedOwners(subject: CoverageSubject, before: readonly Grant[], after: readonly Grant[]): string[] {
  const owners = new Set<string>();
  for (const g of [...before, ...after]) owners.add(g.owner);
  return [...owners].filter((o) => o !== subject.org && grantsOf(before, o) !== grantsOf(after, o)).sort();
}

const grantsOf = (grants: readonly Grant[], owner: string): string =>
  JSON.stringify(
    grants.filter((g) => g.owner === owner),
    (_k, v: unknown) => (v instanceof Set ? [...v].sort() : v),
  );

function dataItem(
  timeline: PolicyTimeline,
  subject: CoverageSubject,
  entry: DataEntry,
  target: CoverageTarget | undefined,
): FeedItem | undefined {
  if (!target) return undefined;
  if (entry.owner !== subject.org && !timeline.ruleBefore(entry.at).covers(subject, target)) return undefined;
  const item: FeedItem = { after: { ...entry.at, idx: DONE }, change: entry.change, published: entry.published, globalId: entry.globalId };
  if (entry.typeCode !== undefined) item.typeCode = entry.typeCode;
  if (entry.revision !== undefined) item.revision = entry.revision;
  return item;
}

function zip<A, B>(as: readonly A[], bs: readonly B[]): [A, B][] {
  return as.map((a, i) => [a, bs[i]!]);
}
