import type oxigraph from 'oxigraph';
import type { ChangeOp } from '../../core/ports/quad-store.js';
import type { GraphStaging } from '../../core/ports/graph-staging.js';
import { QueryBank } from '../../core/queries/query-bank.js';
import { svc } from '../../core/rdf/namespaces.js';
import { countLines } from './oxigraph-terms.js';
import { LineGrouping, labelsIn, type LabelSet } from './blank-node-groups.js';
import { SLICE_MS } from '../../core/util/slices.js';
import { SLICE_CHARS, STAGE_MIN_CHARS } from './staged-inserts.js';

const STAGED_GRAPHS = new QueryBank().text('store/staged-graphs');
/** The mark a staged graph carries in itself until its commit: what start-up finds and drops if none came. */
const MARK = `<${svc('stagedGraph')}>`;

/** What staging ahead of a commit needs of the embedded store (oxigraph-store.ts). */
export interface StagingHost {
  /** Read afresh for each slice: a compaction may replace the memory while a graph is staged. */
  readonly store: oxigraph.Store;
  /** The memory now, compared by identity: a graph staged into another one is loaded again at its commit. */
  readonly memory: object;
  added(quads: number): void;
  /** Drops a graph that holds only what staging loaded (counted as removed). */
  drop(graph: string): void;
  /** Told the time of each piece staging ran in (the grouping, each slice), in ms. */
  piece(ms: number): void;
}

/**
 * One fresh graph loaded ahead of its commit, a slice per step (the caller takes one step per turn of
 * the event loop, organisations in turn). Slices are cut between lines that share no blank node
 * (blank-node-groups.ts): Oxigraph labels each load's blank nodes afresh. The first slice carries the
 * graph's mark, so any copy of a half-staged graph (a snapshot's walk, a memory image) carries it too.
 */
class Staging implements GraphStaging {
  /** The lines grouped by blank node, a step of SLICE_MS a turn, before the first slice is loaded. */
  private grouping: LineGrouping | undefined;
  private groups: string[] | undefined;
  private next = 0;
  private loaded = 0;
  /** The memory the first slice went into, and whether a later one went into another. */
  private into: object | undefined;
  private moved = false;
  /** A line of the text is in another graph: nothing staged, never ready. */
  private outside = false;
  /** Every slice loaded. */
  complete = false;
  labels: LabelSet = new Set<string>();
  published = false;

  constructor(
    private readonly owner: Stagings,
    readonly graph: string,
    readonly nquads: string,
  ) {}

  step(): boolean {
    if (this.published) return false;
    const started = performance.now();
    const host = this.owner.host;
    try {
      if (this.groups === undefined) {
        const end = ` <${this.graph}> .`;
        this.grouping ??= new LineGrouping(this.nquads, (line) => !line.endsWith(end), new Set());
        if (this.grouping.step(SLICE_MS)) return true;
        const { groups, kept } = this.grouping.result();
        // A line in another graph: nothing is staged, and the commit loads the text as written.
        this.groups = kept.length > 0 ? [] : groups;
        this.labels = this.grouping.labels;
        this.grouping = undefined;
        this.outside = kept.length > 0;
        return !this.outside;
      }
      let chunk = this.next === 0 ? `<${this.graph}> ${MARK} "staged" <${this.graph}> .\n` : '';
      const first = chunk.length;
      while (this.next < this.groups.length && (chunk.length === first || chunk.length + this.groups[this.next]!.length <= SLICE_CHARS))
        chunk += this.groups[this.next++];
      if (this.into === undefined) this.into = host.memory;
      else if (this.into !== host.memory) this.moved = true;
      host.store.load(chunk, { format: 'application/n-quads' });
      this.loaded += countLines(chunk);
      host.added(countLines(chunk));
      this.complete = this.next >= this.groups.length;
      return this.next < this.groups.length;
    } finally {
      host.piece(performance.now() - started);
    }
  }

  drop(): void {
    if (this.published) return;
    this.owner.forget(this);
    if (this.loaded > 0) this.owner.host.drop(this.graph);
    this.loaded = 0;
    this.published = true;
  }

  /** Whether the graph is in memory as staged: whole, in the memory there is now. */
  ready(memory: object): boolean {
    return this.complete && !this.moved && !this.outside && this.into === memory;
  }
}

/** What memory applies of a commit's ops, and what marks its staged graphs as the commit's once it has. */
export interface InMemory {
  ops: ChangeOp[];
  publish: () => void;
}

/** The graphs the embedded store has staged ahead of their commits, by graph IRI. */
export class Stagings {
  private readonly open = new Map<string, Staging>();

  constructor(readonly host: StagingHost) {}

  /**
   * A staging of `nquads` into `graph` (see GraphStaging): long text, a graph that holds nothing yet.
   * Its first step checks that every line is in `graph` (counting them here cost ~20 ms in one piece).
   */
  stage(graph: string, nquads: string, holds: (graph: string) => boolean): GraphStaging | undefined {
    if (nquads.length < STAGE_MIN_CHARS || this.open.has(graph) || !/^[^\s<>"{}|^`\\]+$/.test(graph) || holds(graph)) return undefined;
    const staging = new Staging(this, graph, nquads);
    this.open.set(graph, staging);
    return staging;
  }

  forget(staging: Staging): void {
    if (this.open.get(staging.graph) === staging) this.open.delete(staging.graph);
  }

  /**
   * The ops memory applies for a commit's `ops`: a staged graph's drop and insert (the very text staged,
   * whole in this memory, sharing no blank node with another op) become the taking out of its mark.
   * Anything else applies as written, a staged graph loaded again after its drop. `publish` is called
   * once memory has the change: every staged graph it drops is then the commit's, not the staging's.
   */
  inMemory(ops: readonly ChangeOp[]): InMemory {
    if (this.open.size === 0) return { ops: [...ops], publish: () => undefined };
    const taken: Staging[] = [];
    const out: ChangeOp[] = [];
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      const insert = ops[i + 1];
      const staging = op.op === 'dropGraph' ? this.open.get(op.graph) : undefined;
      // A commit that drops a staged graph ends its staging either way: a later drop() must not undo it.
      if (staging) taken.push(staging);
      if (
        staging &&
        insert?.op === 'insert' &&
        insert.nquads === staging.nquads &&
        staging.ready(this.host.memory) &&
        !shares(staging, ops, i)
      ) {
        out.push({ op: 'deleteMatching', subject: `<${staging.graph}>`, predicate: MARK, object: null, graph: staging.graph });
        i += 1;
      } else out.push(op);
    }
    const publish = (): void => {
      for (const staging of taken) {
        staging.published = true;
        this.forget(staging);
      }
    };
    return { ops: out, publish };
  }
}

/** Whether an op of the change other than the staged pair at `at` writes a blank node the staged text has (one load would make them one node). */
function shares(staging: Staging, ops: readonly ChangeOp[], at: number): boolean {
  if (staging.labels.size === 0) return false;
  return ops.some((op, j) => j !== at && j !== at + 1 && op.op === 'insert' && [...labelsIn(op.nquads)].some((l) => staging.labels.has(l)));
}

/**
 * Drops every graph still marked as staged: loaded ahead of a commit that never came, and kept by a
 * snapshot or memory image taken meanwhile. Called once the store is recovered, before any write.
 * Answers the graphs dropped.
 */
export function dropUnpublished(store: oxigraph.Store, drop: (graph: string) => void): string[] {
  const rows = store.query(STAGED_GRAPHS) as Map<string, oxigraph.Term>[];
  const graphs = rows.flatMap((row) => {
    const g = row.get('g');
    return g?.termType === 'NamedNode' ? [g.value] : [];
  });
  for (const graph of graphs) drop(graph);
  return graphs;
}
