import oxigraph from 'oxigraph';
import { GRAPHS, svc } from '../../../core/rdf/namespaces.js';
import { QueryBank } from '../../../core/queries/query-bank.js';
import { COVERAGE_PREDICATES } from '../../../core/policy/coverage-predicates.js';
import type { Logger } from '../../../core/logger.js';
import { asDropAndInsert, type Change, type ChangeOp } from '../../../core/ports/quad-store.js';
import { DataDirCopy, type CopiedStore, type EngineImageWritten, type RecoveredFrom } from '../../oxigraph/recovery/data-dir-copy.js';
import type { QueryMessage } from './messages.js';
import { Touched, VisibleGraphs } from './visible-graphs.js';

const isData = (graph: string): boolean => graph.startsWith('urn:uuid:');
// A quad line: subject, predicate, object, graph. A triple (default graph) does not match.
const QUAD_LINE = /^(\S+) (<[^>]*>) (.+) <([^>]*)> \.$/;
/**
 * The metadata the catalog keeps: what the coverage rule reads about a consignment, and the link from a
 * graph to its consignment and kind that policy/visible-graphs reads. The rest of the metadata graph is
 * bookkeeping it never reads: at 100k consignments it keeps 31 % of that graph's 1.7 M quads.
 */
const CATALOG_PREDICATES = new Set([...COVERAGE_PREDICATES, svc('consignment'), svc('kind')].map((p) => `<${p}>`));

export type { RecoveredFrom };

/**
 * What one SPARQL engine thread holds (src/adapters/sparql-endpoint/engine/worker.ts): two read-only copies, the data
 * graphs (what queries run over) and the policy graph with the part of the metadata graph that decides
 * which data graphs a caller may see, in separate stores, so no query can reach the node's own graphs
 * whatever its dataset. A copy the store makes (DataDirCopy: the store's own replay, with all its
 * checks, or its image), then following every committed change.
 *
 * Changes are buffered as they arrive and applied in one batch when a query comes (or the thread is
 * idle): consecutive inserts go to each store in one load, and the graphs each caller may see are
 * brought up to date with what the batch touched (VisibleGraphs) instead of being recomputed.
 */
export class EngineCopy {
  /** The two stores, `data` and `catalog`, in one instance of their own when the glue allows. */
  private readonly copy = new DataDirCopy(['data', 'catalog'] as const);
  /** Names of the graphs in `data`; a name may outlive its graph (an over-count only costs speed). */
  private dataGraphs = new Set<string>();
  private pending: Change[] = [];
  readonly visible: VisibleGraphs;

  constructor(private readonly queries = new QueryBank()) {
    this.visible = new VisibleGraphs(
      () => this.catalog.store,
      queries,
      () => this.dataGraphs,
    );
  }

  private get data(): CopiedStore {
    return this.copy.stores.data;
  }

  private get catalog(): CopiedStore {
    return this.copy.stores.catalog;
  }

  /** How the copy was last recovered: from its image, or from the snapshot (and why not the image). */
  get recovered(): RecoveredFrom {
    return this.copy.recovered;
  }

  /** Splits N-Quads by destination; lines of other graphs (registry, log, outbox, default) are dropped. */
  private split(nquads: string, touched: Touched): { data: string; catalog: string; quads: number } {
    const toData: string[] = [];
    const toCatalog: string[] = [];
    let quads = 0;
    for (const line of nquads.split('\n')) {
      if (line.length > 0 && !line.startsWith('#')) quads += 1;
      const match = QUAD_LINE.exec(line);
      if (!match) continue;
      // QUAD_LINE's groups all take part in a match.
      const graph = match[4]!;
      if (isData(graph)) {
        toData.push(line);
        // A copy, not the match: V8 keeps a substring as a view of the whole chunk it was cut from, so
        // keeping the match kept every chunk of the snapshot alive (the figure: bench/results/2026-12-07-comment-figures.md).
        if (!this.dataGraphs.has(graph)) {
          const name = Buffer.from(graph).toString();
          this.dataGraphs.add(name);
          this.visible.dataGraph(name, true);
        }
      } else if (graph === GRAPHS.policies) {
        toCatalog.push(line);
        touched.all = true;
      } else if (graph === GRAPHS.metadata && CATALOG_PREDICATES.has(match[2]!)) {
        toCatalog.push(line);
        touched.subject(match[1]!);
      }
    }
    const text = (lines: string[]) => (lines.length === 0 ? '' : `${lines.join('\n')}\n`);
    return { data: text(toData), catalog: text(toCatalog), quads };
  }

  /** A committed change, applied with the next batch. */
  follow(change: Change): void {
    this.pending.push(change);
  }

  /** Quads removed from this copy since it was loaded: its memory still holds them (docs/memory-compaction.md). */
  get deadQuads(): number {
    return this.data.deadQuads + this.catalog.deadQuads;
  }

  get liveQuads(): number {
    return this.data.approximateSize + this.catalog.approximateSize;
  }

  get pendingChanges(): number {
    return this.pending.length;
  }

  /** Applies the changes followed since the last batch, in commit order. */
  flush(): void {
    if (this.pending.length === 0) return;
    const changes = this.pending;
    this.pending = [];
    const touched = new Touched();
    // One op per change, in commit order: replay loads runs of inserts at once and keeps drops and
    // deletes between them in place (a drop and a re-insert of the same graph keep their order).
    const dataOps: Change[] = [];
    const catalogOps: Change[] = [];
    for (const change of changes) {
      for (const op of change.ops) this.route(op, dataOps, catalogOps, touched);
    }
    this.data.replay(dataOps);
    this.catalog.replay(catalogOps);
    this.visible.changed(touched.subjects, touched.all);
  }

  private route(op: ChangeOp, dataOps: Change[], catalogOps: Change[], touched: Touched): void {
    if (op.op === 'replaceGraph') {
      // A data graph is replaced in place, by the quads that differ (OxigraphStore); any other graph
      // goes through the split as the drop and insert it stands for.
      if (!isData(op.graph)) {
        for (const part of asDropAndInsert(op)) this.route(part, dataOps, catalogOps, touched);
        return;
      }
      dataOps.push({ ops: [op] });
      const holds = op.nquads.length > 0;
      if (holds !== this.dataGraphs.has(op.graph)) {
        if (holds) this.dataGraphs.add(op.graph);
        else this.dataGraphs.delete(op.graph);
        this.visible.dataGraph(op.graph, holds);
      }
    } else if (op.op === 'insert') {
      const parts = this.split(op.nquads, touched);
      if (parts.data) dataOps.push({ ops: [{ op: 'insert', nquads: parts.data }] });
      if (parts.catalog) catalogOps.push({ ops: [{ op: 'insert', nquads: parts.catalog }] });
    } else if (isData(op.graph)) {
      dataOps.push({ ops: [op] });
      if (op.op === 'dropGraph' && this.dataGraphs.delete(op.graph)) this.visible.dataGraph(op.graph, false);
    } else if (op.graph === GRAPHS.policies) {
      catalogOps.push({ ops: [op] });
      touched.all = true;
    } else if (op.graph === GRAPHS.metadata) {
      if (op.op === 'dropGraph') touched.all = true;
      else if (op.predicate === null || CATALOG_PREDICATES.has(op.predicate)) touched.subject(op.subject);
      else return;
      catalogOps.push({ ops: [op] });
    }
  }

  /** A snapshot chunk, split by store; answers the quads it held (kept or not), for the trailer check. */
  private loadSnapshotChunk(bytes: Buffer): number {
    const parts = this.split(bytes.toString('utf8'), new Touched());
    if (parts.data) this.data.loadTrusted(parts.data);
    if (parts.catalog) this.catalog.loadTrusted(parts.catalog);
    return parts.quads;
  }

  /**
   * Reads the data dir through the copy (its image and the logs after it, or the newest snapshot and
   * the logs after it, read only, with the checks of the node's own recovery); answers the quads held.
   */
  recover(dataDir: string, logger: Logger, options: { images?: boolean } = {}): number {
    const feed = {
      started: (restored: boolean): void => this.started(restored),
      snapshot: (bytes: Buffer): number => this.loadSnapshotChunk(bytes),
      changes: (changes: Change[]): void => {
        for (const change of changes) this.follow(change);
        this.flush();
      },
    };
    const quads = this.copy.recover(dataDir, feed, logger, options);
    this.visible.reset();
    return quads;
  }

  /**
   * New stores: nothing kept of the old. Restored from an image, the JS side is rebuilt from them: the
   * data graphs' names from the data store, the callers' graphs recomputed from the catalog on first use.
   */
  private started(restored: boolean): void {
    this.dataGraphs = new Set();
    this.pending = [];
    if (restored) {
      const rows = this.data.store.query(this.queries.text('store/named-graphs')) as Map<string, oxigraph.Term>[];
      for (const row of rows) {
        const graph = row.get('g')?.value;
        if (graph !== undefined && isData(graph)) this.dataGraphs.add(graph);
      }
    }
    this.visible.reset();
  }

  /**
   * Saves this copy's memory as the engine image of `generation` in `dataDir` (engine-image.ts). Must be
   * called when the copy holds exactly the changes before that generation's log: the caller flushes.
   */
  saveImage(dataDir: string, generation: number, durable: boolean): Promise<EngineImageWritten> {
    return this.copy.saveImage(dataDir, generation, durable);
  }

  /** Runs a query over exactly the graphs the caller may see, answered as text in its format; applies pending changes first. */
  query(message: Pick<QueryMessage, 'query' | 'format' | 'principal' | 'requested'>): string {
    this.flush();
    return this.data.store.query(message.query, { ...this.datasetOptions(message), results_format: message.format }) as string;
  }

  private datasetOptions(message: Pick<QueryMessage, 'principal' | 'requested'>): Record<string, unknown> {
    const visible = this.visible.of(message.principal);
    const named = (graphs: string[]) => [...new Set(graphs)].filter((g) => visible.graphs.has(g)).map((g) => oxigraph.namedNode(g));
    // FROM / FROM NAMED or the protocol's graph parameters choose among the visible graphs only.
    if (message.requested) return { default_graph: named(message.requested.default), named_graphs: named(message.requested.named) };
    // The data store holds data graphs only, all of them visible: its own union is exactly the dataset.
    if (visible.everything) return { use_default_graph_as_union: true };
    // Both lists, always: with the default graph alone, GRAPH ?g would range over every graph.
    const nodes = visible.nodes();
    return { default_graph: nodes, named_graphs: nodes };
  }
}
