/**
 * A fresh data graph loaded ahead of the commit that names it (issue 48): a large Create's graph is
 * staged a slice at a time before the ingest lock is taken, so under the lock only the decision and a
 * cheap publish run. A staged graph is unseen: nothing names it (no catalog record, no metadata) until
 * the commit that publishes it, and no reader's dataset holds a graph nothing names.
 *
 * The commit that publishes it carries the graph as `dropGraph` then `insert` of exactly the text that
 * was staged: every store, log and follower that did not stage it applies that as written (the drop
 * also clears a copy of a half-staged graph that a snapshot or image took), and the store that staged
 * it swaps the two ops for its publish step.
 */
export interface GraphStaging {
  /** The graph's IRI: a fresh one, which no other write names. */
  readonly graph: string;
  /** The graph's N-Quads, every line in `graph`: the commit's insert is this very text. */
  readonly nquads: string;
  /** Loads the next slice (one piece of main-thread work); answers whether slices are left. */
  step(): boolean;
  /** Takes the staged quads out again unless a commit published them (a refusal, an error, a replay). */
  drop(): void;
}

/** A store that stages large fresh graphs ahead of their commit (the embedded store does). */
export interface StagesGraphs {
  /**
   * A staging of `nquads` into `graph`, or undefined when it is not worth one (short text) or cannot
   * be one (a line outside `graph`, a graph that holds quads already): the commit then loads it as before.
   */
  stage(graph: string, nquads: string): GraphStaging | undefined;
}

/** Whether `store` stages graphs ahead of their commit. */
export function stagesGraphs(store: object): store is StagesGraphs {
  return typeof (store as Partial<StagesGraphs>).stage === 'function';
}
