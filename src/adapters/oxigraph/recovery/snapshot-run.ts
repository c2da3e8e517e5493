import { open } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import oxigraph from 'oxigraph';
import type { QueryBank } from '../../../core/queries/query-bank.js';
import { iri, list } from '../../../core/queries/query-bank.js';
import { GRAPHS } from '../../../core/rdf/namespaces.js';
import { isSafeIri } from '../../../core/rdf/terms.js';
import type { OxigraphStore, ParsedChange } from '../oxigraph-store.js';
import { TRAILER_PREFIX, UNIT_SEPARATOR } from './snapshot-files.js';

/** The node's own graphs hold many subjects; they are copied subject by subject, the data graphs whole. */
const SYSTEM_GRAPHS = new Set<string>([...Object.values(GRAPHS), '']);
const DEFAULT_GRAPH = '';

const graphTerm = (graph: string) => (graph === DEFAULT_GRAPH ? oxigraph.defaultGraph() : oxigraph.namedNode(graph));

function parseSubject(text: string): oxigraph.NamedNode | oxigraph.BlankNode {
  const [quad] = oxigraph.parse(`${text} <urn:x:p> <urn:x:o> .`, { format: 'application/n-triples' });
  if (quad === undefined) throw new Error(`${text} is not an N-Triples subject`);
  return quad.subject as oxigraph.NamedNode | oxigraph.BlankNode;
}

/**
 * One snapshot of the store as it was at the moment `take()` rotated the log, written while writes go on.
 *
 * Copy-on-write: the store is cut into units (a data graph, or one subject of one of the node's own
 * graphs). The background walk copies each unit not yet copied; a change that is about to touch a unit
 * not yet copied copies it first (synchronously, in the observer). So every unit is copied exactly once,
 * in its state at the rotation, and the snapshot plus the logs from the rotation on is the whole history.
 */
export class SnapshotRun {
  private readonly wholeGraphs = new Set<string>();
  private readonly subjects = new Map<string, Set<string>>();
  private chunks: string[] = [];
  private pendingBytes = 0;
  quads = 0;
  bytes = 0;
  longestPauseMs = 0;

  constructor(
    private readonly store: OxigraphStore,
    private readonly queries: QueryBank,
  ) {}

  readonly observe = (change: ParsedChange): void => {
    change.ops.forEach((op, i) => {
      if (op.op === 'dropGraph' || op.op === 'replaceGraph') this.touch(op.graph, null);
      else if (op.op === 'deleteMatching') this.touch(op.graph, op.subject);
      else {
        for (const quad of change.inserted[i] ?? []) {
          const graph = quad.graph.termType === 'DefaultGraph' ? DEFAULT_GRAPH : quad.graph.value;
          this.touch(graph, quad.subject.termType === 'NamedNode' ? quad.subject.toString() : null);
        }
      }
    });
  };

  private touch(graph: string, subject: string | null): void {
    if (!SYSTEM_GRAPHS.has(graph)) this.copyGraph(graph);
    else if (subject === null) this.copyWholeSystemGraph(graph);
    else this.copySubject(graph, subject);
  }

  private emit(text: string): void {
    if (text.length === 0) return;
    this.chunks.push(text, UNIT_SEPARATOR);
    this.pendingBytes += text.length;
  }

  private copyGraph(graph: string): void {
    if (this.wholeGraphs.has(graph)) return;
    this.wholeGraphs.add(graph);
    this.emitTriples(graph, this.triplesOf(graph));
  }

  /**
   * A whole graph as N-Triples text: dump() is much faster than match() and makes no term objects
   * (figures: bench/results/2026-12-08-comment-figures.md).
   */
  private triplesOf(graph: string): string {
    return this.store.holding(graph).dump({ format: 'application/n-triples', from_graph_name: graphTerm(graph) });
  }

  /** N-Triples text of `graph` as N-Quads (a literal's line breaks are escaped, so " .\n" ends a line). */
  private emitTriples(graph: string, triples: string): void {
    if (triples.length === 0) return;
    const end = graph === DEFAULT_GRAPH ? ' .\n' : ` ${graphTerm(graph).toString()} .\n`;
    let n = 0;
    const quads = triples.replace(/ \.\n/g, () => {
      n += 1;
      return end;
    });
    this.quads += n;
    this.emit(quads);
  }

  private copiedSubjects(graph: string): Set<string> {
    let set = this.subjects.get(graph);
    if (!set) this.subjects.set(graph, (set = new Set()));
    return set;
  }

  private copySubject(graph: string, subject: string): void {
    if (this.wholeGraphs.has(graph)) return;
    const copied = this.copiedSubjects(graph);
    if (copied.has(subject)) return;
    copied.add(subject);
    this.emitQuads(this.store.holding(graph).match(parseSubject(subject), null, null, graphTerm(graph)));
  }

  /**
   * Subjects not copied yet: IRIs in one query, blank nodes (which a query cannot name) one by one.
   * Answers whether an IRI was left that neither a query nor match() accepts (a lenient load can keep
   * one): only copying the rest of the graph at once reaches it.
   */
  private copySubjects(graph: string, subjects: string[]): boolean {
    if (this.wholeGraphs.has(graph)) return false;
    const copied = this.copiedSubjects(graph);
    const named: string[] = [];
    let left = false;
    for (const subject of subjects) {
      if (copied.has(subject)) continue;
      const value = subject.slice(1, -1);
      if (!subject.startsWith('<')) this.copySubject(graph, subject);
      else if (!isSafeIri(value)) left = true;
      else {
        copied.add(subject);
        named.push(value);
      }
    }
    if (named.length === 0) return left;
    const query =
      graph === DEFAULT_GRAPH
        ? this.queries.bind('store/default-graph-subjects-triples', { subjects: list(named.map(iri)) })
        : this.queries.bind('store/subjects-triples', { graph: iri(graph), subjects: list(named.map(iri)) });
    this.emitTriples(graph, this.store.holding(graph).query(query, { results_format: 'application/n-triples' }) as string);
    return left;
  }

  /** Every subject of one of the node's graphs not copied yet, in one step. */
  private copyWholeSystemGraph(graph: string): void {
    if (this.wholeGraphs.has(graph)) return;
    const copied = this.copiedSubjects(graph);
    this.wholeGraphs.add(graph);
    const triples = this.triplesOf(graph);
    // A line's subject is its text up to the first space, written as the subject lists write it.
    const rest = triples.split('\n').filter((line) => line !== '' && !copied.has(line.slice(0, line.indexOf(' '))));
    this.emitTriples(graph, rest.length === 0 ? '' : `${rest.join('\n')}\n`);
  }

  private emitQuads(quads: oxigraph.Quad[]): void {
    if (quads.length === 0) return;
    this.quads += quads.length;
    let text = '';
    for (const q of quads) text += `${q.toString()} .\n`;
    this.emit(text);
  }

  /**
   * The first column of a SELECT's answer, each term in N-Triples syntax. Asked as SPARQL TSV text,
   * which holds the event loop less than term objects do for the metadata graph's subjects (figures:
   * bench/results/2026-12-08-comment-figures.md).
   */
  private column(query: string, store: oxigraph.Store = this.store.store): string[] {
    const lines = (store.query(query, { results_format: 'text/tab-separated-values' }) as string).split('\n');
    return lines
      .slice(1)
      .map((line) => line.split('\t', 1)[0]!)
      .filter((term) => term !== '');
  }

  /** Copies every unit not copied yet, yielding to requests between small batches. */
  async walk(write: (text: string) => Promise<void>): Promise<void> {
    const drain = async () => {
      while (this.chunks.length > 0) {
        const text = this.chunks.splice(0).join('');
        this.pendingBytes = 0;
        this.bytes += Buffer.byteLength(text);
        await write(text);
      }
    };
    const timed = <T>(work: () => T): T => {
      const started = performance.now();
      try {
        return work();
      } finally {
        this.longestPauseMs = Math.max(this.longestPauseMs, performance.now() - started);
      }
    };
    const named = (store: oxigraph.Store) =>
      this.column(this.queries.text('store/named-graphs'), store)
        .filter((term) => term.startsWith('<'))
        .map((term) => term.slice(1, -1));
    const graphs = timed(() => this.store.stores.flatMap(named));
    graphs.push(DEFAULT_GRAPH);
    const BATCH = 200;
    const SUBJECT_BATCH = 1000;
    for (let i = 0; i < graphs.length; i += BATCH) {
      const batch = graphs.slice(i, i + BATCH);
      for (const graph of batch) {
        if (SYSTEM_GRAPHS.has(graph)) {
          if (this.wholeGraphs.has(graph)) continue;
          const query =
            graph === DEFAULT_GRAPH
              ? this.queries.text('store/default-graph-subjects')
              : this.queries.bind('store/graph-subjects', { graph: iri(graph) });
          // Blank-node subjects too: the store keeps their labels, so match() finds them by label.
          const subjects = timed(() => this.column(query, this.store.holding(graph)));
          let left = false;
          for (let j = 0; j < subjects.length; j += SUBJECT_BATCH) {
            if (timed(() => this.copySubjects(graph, subjects.slice(j, j + SUBJECT_BATCH)))) left = true;
            await drain();
            await yieldToEventLoop();
          }
          if (left) timed(() => this.copyWholeSystemGraph(graph));
        } else {
          timed(() => this.copyGraph(graph));
        }
      }
      await drain();
      await yieldToEventLoop();
    }
    await drain();
  }
}

/**
 * Walks `run` into the file `path` (created 0600), ends it with the trailer that marks it complete,
 * and syncs it when `fsync`: the caller renames it into place, or removes it after a failure.
 */
export async function writeSnapshotFile(run: SnapshotRun, path: string, generation: number, fsync: boolean): Promise<void> {
  const file = await open(path, 'w', 0o600);
  try {
    await run.walk(async (text) => {
      await file.write(text);
    });
    await file.write(`${TRAILER_PREFIX} generation=${generation} quads=${run.quads}\n`);
    if (fsync) await file.sync();
  } finally {
    await file.close();
  }
}
