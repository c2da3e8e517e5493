import oxigraph from 'oxigraph';
import type { Change, ChangeOp } from '../../core/ports/quad-store.js';
import type { UpdateText } from '../sparql-server/update-text.js';
import { removedBy } from './apply-op.js';
import { applyDeletesThenLoad, deletesGoFirst } from './deletes-then-load.js';
import { countLines, type ChangeObserver } from './oxigraph-terms.js';
import { checkedInPlace, type ReplacePlan } from './replace-in-place.js';

/** The embedded store's memory as a commit applies to it (oxigraph-store.ts). */
export interface OwnMemory {
  readonly store: oxigraph.Store;
  readonly observer: ChangeObserver | undefined;
  readonly updateText: UpdateText;
  removed(quads: number): void;
  added(quads: number): void;
  /** `plan`: a replaceGraph's, made when its commit was checked. */
  applyOp(op: ChangeOp, plan?: ReplacePlan): void;
}

/** The inserts of `ops` parsed, index-aligned (what a snapshot's observer needs before they apply). */
export function parsedInserts(ops: readonly ChangeOp[]): (oxigraph.Quad[] | undefined)[] {
  return ops.map((op) =>
    op.op === 'insert' && op.nquads.length > 0 ? oxigraph.parse(op.nquads, { format: 'application/n-quads' }) : undefined,
  );
}

/**
 * Applies a commit's ops to memory, all or nothing: one load (after a charged write's few deletes:
 * deletes-then-load.ts) or one update, each parsed whole before any of it is applied, so a bad op
 * applies nothing (a strict load takes a quad for about a third of what INSERT DATA takes); a change
 * that replaces a graph, op by op once checkedInPlace() found nothing wrong with it.
 */
export function applyOwn(memory: OwnMemory, change: Change): void {
  const { store, observer } = memory;
  if (change.ops.some((op) => op.op === 'replaceGraph')) {
    const { plans, inserted } = checkedInPlace(change, memory.updateText, store);
    observer?.({ ops: change.ops, inserted });
    change.ops.forEach((op, i) => memory.applyOp(op, plans[i]));
    return;
  }
  const inserts = change.ops.flatMap((op) => (op.op === 'insert' && op.nquads.length > 0 ? [op.nquads] : []));
  const loads = deletesGoFirst(change.ops);
  const update = loads ? '' : memory.updateText.of(change.ops);
  // Only a snapshot in progress needs the inserted quads themselves (to copy what they touch first).
  observer?.({ ops: change.ops, inserted: parsedInserts(change.ops) });
  const removed = loads ? applyDeletesThenLoad(store, change.ops) : removedBy(store, change.ops);
  if (!loads) store.update(update);
  memory.removed(removed);
  memory.added(inserts.reduce((n, text) => n + countLines(text), 0));
}
