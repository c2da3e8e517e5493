import oxigraph from 'oxigraph';
import type { ChangeOp } from '../../core/ports/quad-store.js';
import type { UpdateText } from '../sparql-server/update-text.js';
import { countLines, parseTerm } from './oxigraph-terms.js';
import { applyReplace, planReplace, type ReplacePlan } from './replace-in-place.js';

/**
 * Quads an op took out of a store and put into it, for the store's size estimate. `added` is absent
 * when the op adds nothing by its kind (a drop, a delete, an empty insert): the headroom then is not
 * asked to grow.
 */
export interface OpCounts {
  removed: number;
  added?: number;
}

/** Applies one op to `store`; `plan`: a replaceGraph's, made when its commit was checked (a replay makes its own). */
export function applyOp(store: oxigraph.Store, updateText: UpdateText, op: ChangeOp, plan?: ReplacePlan): OpCounts {
  switch (op.op) {
    case 'replaceGraph':
      // Only the quads that differ change (replace-in-place.ts).
      return applyReplace(store, plan ?? planReplace(store, op, false));
    case 'dropGraph': {
      // A DROP update: deleting the quads one by one costs far more (figures:
      // bench/results/2026-12-08-comment-figures.md).
      const removed = store.match(null, null, null, oxigraph.namedNode(op.graph)).length;
      store.update(updateText.of([op]));
      return { removed };
    }
    case 'deleteMatching': {
      const matches = matching(store, op);
      for (const quad of matches) store.delete(quad);
      return { removed: matches.length };
    }
    case 'insert':
      if (op.nquads.length === 0) return { removed: 0 };
      // load(), not add(): add() costs many times more a quad (figures:
      // bench/results/2026-12-08-comment-figures.md). Lenient: a replayed record was parsed strictly
      // when it was first committed, so a second check only costs time.
      store.load(op.nquads, { format: 'application/n-quads', lenient: true });
      return { removed: 0, added: countLines(op.nquads) };
  }
}

/** How many quads the drops and deletes of a change remove, for the size estimate. */
export function removedBy(store: oxigraph.Store, ops: readonly ChangeOp[]): number {
  let n = 0;
  for (const op of ops) {
    if (op.op === 'dropGraph') n += store.match(null, null, null, oxigraph.namedNode(op.graph)).length;
    else if (op.op === 'deleteMatching') n += matching(store, op).length;
  }
  return n;
}

function matching(store: oxigraph.Store, op: Extract<ChangeOp, { op: 'deleteMatching' }>): oxigraph.Quad[] {
  return store.match(parseTerm(op.subject), parseTerm(op.predicate), parseTerm(op.object), oxigraph.namedNode(op.graph));
}
