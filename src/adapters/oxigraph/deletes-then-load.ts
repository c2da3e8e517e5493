import oxigraph from 'oxigraph';
import type { ChangeOp } from '../../core/ports/quad-store.js';
import { checkDeleteMatching } from '../sparql-server/update-text.js';
import { parseTerm } from './oxigraph-terms.js';

type DeleteMatching = Extract<ChangeOp, { op: 'deleteMatching' }>;

/**
 * Whether a change of inserts and deletes by pattern has the same effect with every delete first: no
 * delete comes after an insert that could hold a quad it matches (checked on the text, so a mention of
 * the pattern's graph and subject is enough to say no). A charged write is such a change: the quota
 * totals it replaces (usage-records.ts) are in a graph none of the write's other inserts touch. Throws
 * InvalidChangeError, before anything changes, for a term the update text would refuse (a blank node,
 * a variable, other text).
 */
export function deletesGoFirst(ops: readonly ChangeOp[]): boolean {
  for (const op of ops) if (op.op === 'deleteMatching') checkDeleteMatching(op);
  const inserted: string[] = [];
  for (const op of ops) {
    if (op.op === 'insert') inserted.push(op.nquads);
    else if (op.op !== 'deleteMatching') return false;
    else if (inserted.some((text) => text.includes(`<${op.graph}>`) && (op.subject === null || text.includes(op.subject)))) return false;
  }
  return true;
}

/**
 * Applies such a change as a few deletes of matched quads and one strict load of every insert, where a
 * SPARQL Update of the same ops parses all its INSERT DATA quads at several times a load's cost, most
 * of a Create's commit (figures: bench/results/2026-12-08-comment-figures.md). Atomic as the Update is:
 * the load is parsed whole before any of it applies, and when it fails the deleted quads are put back
 * before anything else runs. Answers the quads removed.
 */
export function applyDeletesThenLoad(store: oxigraph.Store, ops: readonly ChangeOp[]): number {
  const deleted: oxigraph.Quad[] = [];
  for (const op of ops) {
    if (op.op !== 'deleteMatching') continue;
    for (const quad of matching(store, op)) {
      store.delete(quad);
      deleted.push(quad);
    }
  }
  const inserts = ops.flatMap((op) => (op.op === 'insert' && op.nquads.length > 0 ? [op.nquads] : []));
  try {
    if (inserts.length > 0)
      store.load(inserts.map((text) => (text.endsWith('\n') ? text : `${text}\n`)).join(''), { format: 'application/n-quads' });
  } catch (error) {
    for (const quad of deleted) store.add(quad);
    throw error;
  }
  return deleted.length;
}

function matching(store: oxigraph.Store, op: DeleteMatching): oxigraph.Quad[] {
  return store.match(parseTerm(op.subject), parseTerm(op.predicate), parseTerm(op.object), oxigraph.namedNode(op.graph));
}
