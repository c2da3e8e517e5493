import type { Quad, Term } from '@rdfjs/types';
import type { ChangeNote } from '../catalog/change-notes.js';

/** The graphs a query may read: default graph = their union, named graphs = exactly these. */
export interface QueryDataset {
  defaultGraphs: string[];
  namedGraphs: string[];
}

export type Bindings = Map<string, Term>;

/**
 * One atomic change. Operations are data, not SPARQL text, so the embedded store can log and replay
 * them and the SPARQL-protocol store can turn them into one Update request.
 */
export type ChangeOp =
  | { op: 'dropGraph'; graph: string }
  /** Delete quads matching a pattern: terms in N-Triples syntax, null = any. */
  | { op: 'deleteMatching'; subject: string | null; predicate: string | null; object: string | null; graph: string }
  /** Insert N-Quads text (each quad names its graph). */
  | { op: 'insert'; nquads: string }
  /**
   * Make `graph` hold exactly these N-Quads (every one of them in `graph`): a drop and an insert, which
   * a store may carry out by changing only the quads that differ (the embedded store does: graph-diff.ts).
   */
  | { op: 'replaceGraph'; graph: string; nquads: string };

/** The drop and the insert a replaceGraph stands for, for stores that apply it as such. */
export function asDropAndInsert(
  op: Extract<ChangeOp, { op: 'replaceGraph' }>,
): [Extract<ChangeOp, { op: 'dropGraph' }>, Extract<ChangeOp, { op: 'insert' }>] {
  return [
    { op: 'dropGraph', graph: op.graph },
    { op: 'insert', nquads: op.nquads },
  ];
}

export interface Change {
  ops: ChangeOp[];
  /**
   * What the writer knows about the change beyond its quads (an accepted activity, a policy change),
   * for the followers of the change feed (change-feed.ts). Stores neither apply nor log it.
   */
  notes?: readonly ChangeNote[];
  /**
   * Set when an organisation asked for the write: what it counts against, for the commit gate
   * (core/quotas/commit-gate.ts), which takes it off. Without one the commit is the node's own bookkeeping.
   */
  charge?: Charge;
}

/** What a write counts against: its organisation's totals, and for a graph on a consignment, that consignment's. */
export interface Charge {
  organisation: string;
  /** What the commit adds to each count; negative gives back (a withdrawn policy). Bytes are measured by the gate. */
  consignments?: number;
  graphs?: number;
  policies?: number;
  /** A write to a consignment (record IRI): counted for its owner, or as another organisation's contribution. */
  consignment?: { record: string; owner: string };
}

export interface Committed {
  durable: Promise<void>;
}

/** The reads a store answers. */
export interface QueryStore {
  /** SELECT over the whole store, or over `dataset` when given. */
  select(query: string, dataset?: QueryDataset): Promise<Bindings[]>;
  ask(query: string, dataset?: QueryDataset): Promise<boolean>;
  construct(query: string, dataset?: QueryDataset): Promise<Quad[]>;
  /**
   * Any read query answered as serialised text in `format` (a media type): over `dataset` for the SPARQL
   * endpoint, or as written (undefined) for the node's own queries that name their graphs.
   */
  queryRaw(query: string, dataset: QueryDataset | undefined, format: string): Promise<string>;
}

export interface QuadStore extends QueryStore {
  /**
   * Where the activity-log graph is read. A store may keep that graph apart from the others (it is
   * append-only, and its long JSON literals take a good share of an embedded store's memory): a query asked
   * here names the activity log alone, and no query joins it with another graph. A store that keeps
   * every graph together answers it itself (`activityLog === store`), and callers may then ask one
   * query that reads both, where a round trip to a server costs more than the join.
   */
  readonly activityLog: QueryStore;
  /**
   * The most rows one answer should carry (a SPARQL server's row cap: Virtuoso's default is 10,000),
   * which the node's paged reads at start keep under; undefined when answers have no cap. An embedded
   * store answers a whole read in one pass: each range of a paged read scans every record again, and a
   * start's reads in ranges cost many times their one pass (figures:
   * bench/results/2026-12-08-comment-figures.md).
   */
  readonly rowCap?: number;
  /**
   * Applies the change atomically. Resolves once later queries see it, with `durable` resolving once
   * it survives a crash: callers answer only after `durable`, but need not hold locks while it syncs.
   */
  commit(change: Change): Promise<Committed>;
  /** Number of quads held, for the capacity guard. */
  size(): Promise<number>;
  close(): Promise<void>;
}
