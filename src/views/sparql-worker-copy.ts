import { existsSync } from 'node:fs';
import { join } from 'node:path';
import oxigraph from 'oxigraph';
import { GRAPHS, svc } from '../rdf/namespaces.js';
import { QueryBank } from '../queries/query-bank.js';
import { coverageBindings } from '../policy/coverage-subject.js';
import { OxigraphStore } from '../store/oxigraph-store.js';
import type { Change, ChangeOp } from '../store/quad-store.js';
import { readUnits } from '../store/recovery.js';
import { snapshotFileName, snapshotGenerations } from '../store/snapshot-files.js';
import { logFileName, logGenerations, readLog } from '../store/write-ahead-log.js';
import type { EnginePrincipal, QueryMessage } from './sparql-worker-messages.js';

const isData = (graph: string): boolean => graph.startsWith('urn:uuid:');
// A quad line: subject, predicate, object, graph. A triple (default graph) does not match.
const QUAD_LINE = /^(\S+) (<[^>]*>) (.+) <([^>]*)> \.$/;

interface Visible {
  generation: number;
  graphs: Set<string>;
  /** The caller may see every data graph held: the query needs no list of graphs. */
  everything: boolean;
  nodes?: oxigraph.NamedNode[];
}

/**
 * What one SPARQL engine thread holds (src/views/sparql-worker.ts): two read-only copies, the data
 * graphs (what queries run over) and the policy graph with the part of the metadata graph that decides
 * which data graphs a caller may see, in separate stores, so no query can reach the node's own graphs
 * whatever its dataset. Built from the data dir, then following every committed change.
 */
export class EngineCopy {
  private readonly queries: QueryBank;
  private data = new OxigraphStore();
  private catalog = new OxigraphStore();
  /** Names of the graphs in `data`; a name may outlive its graph (an over-count only costs speed). */
  private dataGraphs = new Set<string>();
  private generation = 0;
  /** Visible graphs per caller, for the current generation only. */
  private readonly visibleCache = new Map<string, Visible>();
  /**
   * The metadata the catalog keeps: only the predicates the visibility query names, read from the
   * query itself, so a predicate added there is kept here too. The rest of the metadata graph is
   * bookkeeping it never reads: at 100k consignments it keeps 31 % of that graph's 1.7 M quads.
   */
  private readonly catalogPredicates: Set<string>;

  constructor(queries = new QueryBank()) {
    this.queries = queries;
    this.catalogPredicates = new Set([...queries.text('policy/visible-graphs').matchAll(/\bsvc:(\w+)/g)].map((m) => `<${svc(m[1])}>`));
  }

  /** Splits N-Quads by destination; lines of other graphs (registry, log, outbox, default) are dropped. */
  split(nquads: string): { data: string; catalog: string } {
    const toData: string[] = [];
    const toCatalog: string[] = [];
    for (const line of nquads.split('\n')) {
      const match = QUAD_LINE.exec(line);
      if (!match) continue;
      const graph = match[4];
      if (isData(graph)) {
        toData.push(line);
        // A copy, not the match: V8 keeps a substring as a view of the whole chunk it was cut from, so
        // keeping the match kept every 8 MB chunk of the snapshot alive (1 GB of heap at 100k consignments).
        if (!this.dataGraphs.has(graph)) this.dataGraphs.add(Buffer.from(graph).toString());
      } else if (graph === GRAPHS.policies || (graph === GRAPHS.metadata && this.catalogPredicates.has(match[2]))) {
        toCatalog.push(line);
      }
    }
    const text = (lines: string[]) => (lines.length === 0 ? '' : `${lines.join('\n')}\n`);
    return { data: text(toData), catalog: text(toCatalog) };
  }

  apply(change: Change): void {
    const dataOps: ChangeOp[] = [];
    const catalogOps: ChangeOp[] = [];
    for (const op of change.ops) {
      if (op.op === 'insert') {
        const parts = this.split(op.nquads);
        if (parts.data) dataOps.push({ op: 'insert', nquads: parts.data });
        if (parts.catalog) catalogOps.push({ op: 'insert', nquads: parts.catalog });
      } else if (isData(op.graph)) {
        dataOps.push(op);
        if (op.op === 'dropGraph') this.dataGraphs.delete(op.graph);
      } else if (op.graph === GRAPHS.policies || op.graph === GRAPHS.metadata) catalogOps.push(op);
    }
    // In the order of the change: a drop and a re-insert of the same graph must keep their order.
    this.data.apply({ ops: dataOps });
    this.catalog.apply({ ops: catalogOps });
    this.generation += 1;
  }

  /** The newest snapshot, read in chunks cut only between units (so no blank node is split), and split by store. */
  private loadSnapshotFile(path: string): void {
    readUnits(path, (bytes) => {
      const parts = this.split(bytes.toString('utf8'));
      if (parts.data) this.data.loadTrusted(parts.data);
      if (parts.catalog) this.catalog.loadTrusted(parts.catalog);
    });
  }

  private recoverOnce(dataDir: string): void {
    const base = snapshotGenerations(dataDir).at(-1);
    if (base !== undefined) this.loadSnapshotFile(join(dataDir, snapshotFileName(base)));
    for (const log of logGenerations(dataDir).filter((g) => base === undefined || g >= base)) {
      const path = join(dataDir, logFileName(log));
      const { changes } = readLog(path);
      // A newer snapshot may have removed this log meanwhile: then start again from that snapshot.
      if (!existsSync(path)) throw new Error(`${path} was removed while it was read`);
      for (const change of changes) this.apply(change);
    }
  }

  /** Reads the data dir (newest snapshot and the logs after it, read only); answers the quads held. */
  recover(dataDir: string): number {
    for (let attempt = 1; ; attempt++) {
      try {
        this.recoverOnce(dataDir);
        break;
      } catch (error) {
        if (attempt >= 5) throw error;
        this.data = new OxigraphStore();
        this.catalog = new OxigraphStore();
        this.dataGraphs = new Set();
      }
    }
    return this.data.resync() + this.catalog.resync();
  }

  visibleTo(principal: EnginePrincipal): Visible {
    const key = JSON.stringify(principal);
    const hit = this.visibleCache.get(key);
    if (hit && hit.generation === this.generation) return hit;
    const rows = this.catalog.store.query(this.queries.bind('policy/visible-graphs', coverageBindings({ email: '', org: { ...principal, name: '' } }))) as Map<string, oxigraph.Term>[];
    const graphs = new Set(rows.map((row) => row.get('graph')!.value));
    let everything = graphs.size === this.dataGraphs.size;
    if (everything) for (const g of this.dataGraphs) if (!graphs.has(g)) everything = false;
    const visible: Visible = { generation: this.generation, graphs, everything };
    if (this.visibleCache.size > 64) this.visibleCache.clear();
    this.visibleCache.set(key, visible);
    return visible;
  }

  datasetOptions(message: Pick<QueryMessage, 'principal' | 'requested'>): Record<string, unknown> {
    const visible = this.visibleTo(message.principal);
    const named = (graphs: string[]) => [...new Set(graphs)].filter((g) => visible.graphs.has(g)).map((g) => oxigraph.namedNode(g));
    // FROM / FROM NAMED or the protocol's graph parameters choose among the visible graphs only.
    if (message.requested) return { default_graph: named(message.requested.default), named_graphs: named(message.requested.named) };
    // The data store holds data graphs only, all of them visible: its own union is exactly the dataset.
    if (visible.everything) return { use_default_graph_as_union: true };
    // Both lists, always: with the default graph alone, GRAPH ?g would range over every graph.
    visible.nodes ??= [...visible.graphs].map((g) => oxigraph.namedNode(g));
    return { default_graph: visible.nodes, named_graphs: visible.nodes };
  }

  /** Runs a query over exactly the graphs the caller may see, answered as text in its format. */
  query(message: Pick<QueryMessage, 'query' | 'format' | 'principal' | 'requested'>): string {
    return this.data.store.query(message.query, { ...this.datasetOptions(message), results_format: message.format }) as string;
  }
}
