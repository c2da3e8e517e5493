import oxigraph from 'oxigraph';
import type { ChangeOp } from '../../core/ports/quad-store.js';
import { nextTurn } from '../../core/util/next-turn.js';
import { countLines, type ChangeObserver } from './oxigraph-terms.js';
import { LineGrouping, labelsIn } from './blank-node-groups.js';
import { SLICE_MS } from '../../core/util/slices.js';

/**
 * An insert this long (~400 quads) or longer is loaded ahead of the rest of its change, in slices.
 * Shorter ones cost less than a slice and are loaded with the rest in one piece, as before.
 */
export const STAGE_MIN_CHARS = 64 * 1024;
/** Text one slice loads: ~100–150 quads, 1–2 ms of Oxigraph's strict load on an idle core. */
export const SLICE_CHARS = 16 * 1024;

/** What staging needs of the embedded store it loads into. */
export interface StageTarget {
  /** Read afresh for each slice (a compaction may not adopt while a commit stages, but asks anyway). */
  readonly store: oxigraph.Store;
  readonly observer: ChangeObserver | undefined;
  /** Whether `graph` holds any quad now. */
  holds(graph: string): boolean;
  /** Drops `graph`, which holds only what staging loaded, in one step. */
  drop(graph: string): void;
  added(quads: number): void;
  /** Told the time of each piece staging ran in one turn (the grouping, each slice), in ms. */
  piece(ms: number): void;
}

export interface Staged {
  /** The ops still to apply: the change's own, less the lines already loaded. */
  ops: ChangeOp[];
  /** Takes the loaded lines out again (the rest of the change was refused). */
  undo(): void;
}

/** How many pieces staging ran in, one a turn, and the longest: what one of them holds the loop for. */
export class Pieces {
  pieces = 0;
  longestPieceMs = 0;

  piece(ms: number): void {
    this.pieces += 1;
    this.longestPieceMs = Math.max(this.longestPieceMs, ms);
  }
}

/** Whether `ops` holds an insert long enough to stage. */
export function hasLargeInsert(ops: readonly ChangeOp[]): boolean {
  return ops.some((op) => op.op === 'insert' && op.nquads.length >= STAGE_MIN_CHARS);
}

/** The graph IRI the first line of `nquads` names, when it ends with one. */
function firstLineGraph(nquads: string): string | undefined {
  const end = nquads.indexOf('\n');
  const line = end < 0 ? nquads : nquads.slice(0, end);
  const at = line.lastIndexOf(' <');
  if (at < 0 || !line.endsWith('> .')) return undefined;
  const graph = line.slice(at + 2, -3);
  return /^[^\s<>"{}|^`\\]+$/.test(graph) ? graph : undefined;
}

/** Whether an op other than the one staged touches `graph` (then its change is applied as it was). */
function touches(op: ChangeOp, graph: string, end: string): boolean {
  return op.op === 'insert' ? op.nquads.includes(end) : op.graph === graph;
}

/**
 * Loads each large insert of `ops` into a graph that holds nothing yet, a slice a turn of the event
 * loop, before the rest of the change. Nothing reads such a graph before the change's other ops (its
 * metadata, the catalog's record) name it: the node names a graph it creates only in the change that
 * fills it, so a reader never sees a half-written graph. Each slice is a strict load, and a bad line
 * takes every loaded line out again before the error is thrown: the change applies whole or not at
 * all, as one load did. Slices are cut between lines that share no blank node (blank-node-groups.ts);
 * lines in another graph (a link), and those sharing a blank node with them or with another op, stay
 * in the ops. A line of N-Quads ends with its graph term, and the node never writes a default-graph
 * triple whose object is a graph's IRI (graph-apart.ts relies on the same): the end tells the graph.
 *
 * The caller holds its commits in order meanwhile (oxigraph-store.ts): memory, log and change feed see
 * the change where it was called, and the staged lines, in a graph nothing else names, commute with
 * every commit in between.
 */
export async function stageInserts(target: StageTarget, ops: readonly ChangeOp[]): Promise<Staged> {
  const loaded = new Set<string>();
  const undo = (): void => {
    for (const graph of loaded) target.drop(graph);
    loaded.clear();
  };
  const left: ChangeOp[] = [];
  try {
    for (const [i, op] of ops.entries()) {
      const graph = op.op === 'insert' && op.nquads.length >= STAGE_MIN_CHARS ? firstLineGraph(op.nquads) : undefined;
      const end = ` <${graph}> .`;
      if (op.op !== 'insert' || graph === undefined || target.holds(graph) || ops.some((o, j) => j !== i && touches(o, graph, end))) {
        left.push(op);
        continue;
      }
      let started = performance.now();
      const shared = new Set(ops.flatMap((o, j) => (j !== i && o.op === 'insert' ? [...labelsIn(o.nquads)] : [])));
      const grouping = new LineGrouping(op.nquads, (line) => !line.endsWith(end), shared);
      while (grouping.step(SLICE_MS)) {
        target.piece(performance.now() - started);
        await nextTurn();
        started = performance.now();
      }
      const { groups, kept } = grouping.result();
      for (let g = 0; g < groups.length;) {
        target.piece(performance.now() - started);
        await nextTurn();
        started = performance.now();
        let chunk = '';
        while (g < groups.length && (chunk.length === 0 || chunk.length + groups[g]!.length <= SLICE_CHARS)) chunk += groups[g++];
        // A snapshot walking the live store copies what a change touches before it changes.
        target.observer?.({ ops: [{ op: 'insert', nquads: chunk }], inserted: [oxigraph.parse(chunk, { format: 'application/n-quads' })] });
        target.store.load(chunk, { format: 'application/n-quads' });
        loaded.add(graph);
        target.added(countLines(chunk));
      }
      target.piece(performance.now() - started);
      if (kept.length > 0) left.push({ op: 'insert', nquads: kept });
    }
  } catch (error) {
    undo();
    throw error;
  }
  return { ops: left, undo };
}
