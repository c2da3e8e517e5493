import type { CoverageSubject } from '../policy/coverage-subject.js';
import { nextTurn } from '../util/next-turn.js';
import type { DataChange, DataEntry, PolicyEntry } from './change-entry.js';
import type { Cursor } from './change-cursor.js';
import type { Candidates, ChangeIndex, Track } from './change-index.js';

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
 * it could not read then is told. Bounded: at most `limits.examine` changes are looked at, in slices.
 */
export async function walk(index: ChangeIndex, subject: CoverageSubject, from: Cursor, limits: WalkLimits): Promise<WalkResult> {
  const items: FeedItem[] = [];
  let examined = 0;
  let i = index.firstAtOrAfter(from);
  let idx = i < index.entries.length && index.entries[i]!.at.seq === from.seq && index.entries[i]!.at.sub === from.sub ? from.idx : 0;
  let candidates: Candidates | undefined;
  const full = () => items.length >= limits.items || examined >= limits.examine;
  while (i < index.entries.length && !full()) {
    const entry = index.entries[i]!;
    if (entry.kind === 'policies' && index.isHeld(entry)) return { items, next: { ...entry.at, idx }, atEnd: true };
    if (entry.kind === 'data') {
      if (idx === 0) {
        examined++;
        const item = dataItem(index, subject, i, entry);
        if (item) items.push(item);
      }
    } else {
      candidates ??= index.candidates(i, subject);
      const before = index.ruleBefore(i);
      const after = index.ruleOf(entry);
      for (; idx < candidates.length && !full(); idx++) {
        examined++;
        const track = candidates.at(idx);
        const target = index.target(track, entry.at, true);
        const was = before.covers(subject, target);
        if (was !== after.covers(subject, target))
          items.push(visibilityItem(entry, idx, track, was ? 'became-invisible' : 'became-visible'));
        if (examined % limits.slice === 0) await nextTurn();
      }
      if (idx < candidates.length) return { items, next: { ...entry.at, idx }, atEnd: false };
    }
    i++;
    idx = 0;
    candidates = undefined;
    if (examined % limits.slice === 0) await nextTurn();
  }
  const last = index.entries[i - 1];
  const next = i < index.entries.length ? { ...index.entries[i]!.at, idx: 0 } : last ? { ...last.at, idx: DONE } : from;
  return { items, next, atEnd: i >= index.entries.length };
}

function dataItem(index: ChangeIndex, subject: CoverageSubject, i: number, entry: DataEntry): FeedItem | undefined {
  const track = index.trackOf(entry.consignment);
  if (!track) return undefined;
  if (entry.owner !== subject.org && !index.ruleBefore(i).covers(subject, index.target(track, entry.at, false))) return undefined;
  const item: FeedItem = { after: { ...entry.at, idx: DONE }, change: entry.change, published: entry.published, globalId: entry.globalId };
  if (entry.typeCode !== undefined) item.typeCode = entry.typeCode;
  if (entry.revision !== undefined) item.revision = entry.revision;
  return item;
}

function visibilityItem(entry: PolicyEntry, idx: number, track: Track, change: VisibilityChange): FeedItem {
  return { after: { ...entry.at, idx: idx + 1 }, change, published: entry.published, globalId: track.globalId };
}
