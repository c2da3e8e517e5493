import type { Change } from '../../core/ports/quad-store.js';

/** Inserts loaded together during replay, at most (about 8 MB). */
const REPLAY_BATCH_CHARACTERS = 8 * 1024 * 1024;

/**
 * How a replay applies changes in order: the inserts of consecutive insert-only changes (most of a log)
 * joined into large N-Quads texts to load at once, any other change on its own. One load per change
 * costs a quad several times what the same quad costs from a snapshot (figures:
 * bench/results/2026-12-08-comment-figures.md). A load gives blank nodes fresh ids, one per label
 * within the load; every activity's labels are its own (bnodePrefix), so loading several changes'
 * inserts together gives the same graphs as one by one.
 */
export function* replaySteps(changes: Iterable<Change>): Generator<string | Change> {
  let pending: string[] = [];
  let pendingLength = 0;
  function* flush(): Generator<string> {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    pendingLength = 0;
    yield text;
  }
  for (const change of changes) {
    if (!change.ops.every((op) => op.op === 'insert')) {
      yield* flush();
      yield change;
      continue;
    }
    for (const op of change.ops) {
      if (op.op !== 'insert' || op.nquads.length === 0) continue;
      pending.push(op.nquads.endsWith('\n') ? op.nquads : `${op.nquads}\n`);
      pendingLength += op.nquads.length;
    }
    if (pendingLength >= REPLAY_BATCH_CHARACTERS) yield* flush();
  }
  yield* flush();
}
