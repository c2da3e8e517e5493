import type { Quad } from '@rdfjs/types';
import n3 from 'n3';
import oxigraph from 'oxigraph';
import { graphDiff, parseQuads } from './graph-diff.js';
import type { Change, ChangeOp } from '../../core/ports/quad-store.js';
import { InvalidChangeError, type UpdateText } from '../sparql-server/update-text.js';

type Replace = Extract<ChangeOp, { op: 'replaceGraph' }>;

/**
 * A replaceGraph worked out against the store before anything is applied: the graph's quads that go
 * and the ones that come (graph-diff.ts), or, for a graph that holds nothing yet, a load (faster than
 * adding quads one by one).
 */
export type ReplacePlan = { load: string; quads: number } | { remove: Quad[]; add: oxigraph.Quad[] };

/**
 * Plans a replaceGraph in `store`. The old quads are read as one N-Triples text and compared as plain
 * terms: each property read of an Oxigraph term is a call into its WebAssembly. `strict` (a commit, not
 * a replay of one): the quads to add are parsed as strictly as a commit's load, so a term Oxigraph
 * would refuse fails here, before anything is applied.
 */
export function planReplace(store: oxigraph.Store, op: Replace, strict: boolean): ReplacePlan {
  const quads = parseQuads(op.nquads);
  if (strict && quads.some((q) => q.graph.termType !== 'NamedNode' || q.graph.value !== op.graph)) {
    throw new InvalidChangeError(`A replaceGraph of ${op.graph} holds quads of another graph`);
  }
  const old = parseQuads(store.dump({ format: 'application/n-triples', from_graph_name: oxigraph.namedNode(op.graph) }), op.graph);
  if (old.length === 0) {
    if (strict && op.nquads.length > 0) oxigraph.parse(op.nquads, { format: 'application/n-quads' });
    return { load: op.nquads, quads: quads.length };
  }
  const { remove, add } = graphDiff(old, quads);
  const text = add.length === 0 ? '' : new n3.Writer({ format: 'N-Quads' }).quadsToString(add);
  return { remove, add: text ? oxigraph.parse(text, { format: 'application/n-quads', lenient: !strict }) : [] };
}

export function applyReplace(store: oxigraph.Store, plan: ReplacePlan): { removed: number; added: number } {
  if ('load' in plan) {
    if (plan.load.length > 0) store.load(plan.load, { format: 'application/n-quads', lenient: true });
    return { removed: 0, added: plan.quads };
  }
  for (const quad of plan.remove) store.delete(quad as unknown as oxigraph.Quad);
  for (const quad of plan.add) store.add(quad);
  return { removed: plan.remove.length, added: plan.add.length };
}

/** What checkedInPlace() made of a change, index-aligned with its ops. */
export interface CheckedChange {
  /** Each replaceGraph's plan. */
  plans: (ReplacePlan | undefined)[];
  /** Each insert's quads, parsed strictly (what a snapshot in progress is shown). */
  inserted: (oxigraph.Quad[] | undefined)[];
}

/**
 * Checks a change that replaces a graph in place before any of it is applied, since it is applied op by
 * op: the Update text of its drops and deletes is rendered for its checks (InvalidChangeError), its
 * inserts are parsed strictly, and each replaceGraph is planned now. A plan is made against the store
 * as it is before the change, so no other op of the change may touch a replaced graph.
 */
export function checkedInPlace(change: Change, updateText: UpdateText, store: oxigraph.Store): CheckedChange {
  updateText.of(
    change.ops.flatMap((op): ChangeOp[] =>
      op.op === 'insert' ? [] : op.op === 'replaceGraph' ? [{ op: 'dropGraph', graph: op.graph }] : [op],
    ),
  );
  const replaced = change.ops.flatMap((op) => (op.op === 'replaceGraph' ? [op.graph] : []));
  const inserted = change.ops.map((op) => {
    const touches =
      op.op === 'insert'
        ? replaced.some((g) => op.nquads.includes(`<${g}> .`))
        : replaced.filter((g) => g === op.graph).length > (op.op === 'replaceGraph' ? 1 : 0);
    if (touches) throw new InvalidChangeError('A change that replaces a graph may not touch it otherwise');
    return op.op === 'insert' && op.nquads.length > 0 ? oxigraph.parse(op.nquads, { format: 'application/n-quads' }) : undefined;
  });
  return { plans: change.ops.map((op) => (op.op === 'replaceGraph' ? planReplace(store, op, true) : undefined)), inserted };
}
