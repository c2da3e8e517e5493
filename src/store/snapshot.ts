import { open, rename, rm } from 'node:fs/promises';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import oxigraph from 'oxigraph';
import type { Logger } from '../logger.js';
import type { QueryBank } from '../queries/query-bank.js';
import { iri, list } from '../queries/query-bank.js';
import { GRAPHS } from '../rdf/namespaces.js';
import { isSafeIri } from '../rdf/terms.js';
import { IMAGE_FILE, imageFileName, type MemoryImage, writeImage } from './memory-image.js';
import type { OxigraphStore, ParsedChange } from './oxigraph-store.js';
import { logFileName, logGenerations, syncDirectory } from './write-ahead-log.js';

export const snapshotFileName = (generation: number): string => `snapshot-${String(generation).padStart(8, '0')}.nq`;
const SNAPSHOT_FILE = /^snapshot-(\d{8})\.nq$/;

/** Generations of the complete snapshots in `dir`, ascending (unfinished ones end in .tmp). */
export function snapshotGenerations(dir: string): number[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((f) => SNAPSHOT_FILE.exec(f)).filter((m) => m !== null).map((m) => Number(m[1])).sort((a, b) => a - b);
}

/** Generations of the complete memory images in `dir`, ascending. */
export function imageGenerations(dir: string): number[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((f) => IMAGE_FILE.exec(f)).filter((m) => m !== null).map((m) => Number(m[1])).sort((a, b) => a - b);
}

/** Comment line between units: a snapshot is loaded in chunks cut only there, so no blank node is split. */
export const UNIT_SEPARATOR = '#\n';
export const TRAILER_PREFIX = '# snapshot complete';

/** The node's own graphs hold many subjects; they are copied subject by subject, the data graphs whole. */
const SYSTEM_GRAPHS = new Set<string>([...Object.values(GRAPHS), '']);
const DEFAULT_GRAPH = '';

const graphTerm = (graph: string) => (graph === DEFAULT_GRAPH ? oxigraph.defaultGraph() : oxigraph.namedNode(graph));

function parseSubject(text: string): oxigraph.NamedNode | oxigraph.BlankNode {
  const [quad] = oxigraph.parse(`${text} <urn:x:p> <urn:x:o> .`, { format: 'application/n-triples' });
  return quad.subject as oxigraph.NamedNode | oxigraph.BlankNode;
}

export interface SnapshotResult {
  generation: number;
  quads: number;
  bytes: number;
  ms: number;
  /** Milliseconds spent listing graphs and copying units with the event loop blocked, longest stretch. */
  longestPauseMs: number;
  /** The memory image written beside the snapshot, when one was. */
  image?: { bytes: number; captureMs: number; writeMs: number };
}

/**
 * One snapshot of the store as it was at the moment `take()` rotated the log, written while writes go on.
 *
 * Copy-on-write: the store is cut into units (a data graph, or one subject of one of the node's own
 * graphs). The background walk copies each unit not yet copied; a change that is about to touch a unit
 * not yet copied copies it first (synchronously, in the observer). So every unit is copied exactly once,
 * in its state at the rotation, and the snapshot plus the logs from the rotation on is the whole history.
 */
class SnapshotRun {
  private readonly wholeGraphs = new Set<string>();
  private readonly subjects = new Map<string, Set<string>>();
  private chunks: string[] = [];
  private pendingBytes = 0;
  quads = 0;
  bytes = 0;
  longestPauseMs = 0;

  constructor(private readonly store: OxigraphStore, private readonly queries: QueryBank) {}

  readonly observe = (change: ParsedChange): void => {
    change.ops.forEach((op, i) => {
      if (op.op === 'dropGraph') this.touch(op.graph, null);
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

  /** A whole graph as N-Triples text: dump() is ~10x faster than match() and makes no term objects. */
  private triplesOf(graph: string): string {
    return this.store.store.dump({ format: 'application/n-triples', from_graph_name: graphTerm(graph) });
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
    if (!set) this.subjects.set(graph, set = new Set());
    return set;
  }

  private copySubject(graph: string, subject: string): void {
    if (this.wholeGraphs.has(graph)) return;
    const copied = this.copiedSubjects(graph);
    if (copied.has(subject)) return;
    copied.add(subject);
    this.emitQuads(this.store.store.match(parseSubject(subject), null, null, graphTerm(graph)));
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
    const query = graph === DEFAULT_GRAPH
      ? this.queries.bind('store/default-graph-subjects-triples', { subjects: list(named.map(iri)) })
      : this.queries.bind('store/subjects-triples', { graph: iri(graph), subjects: list(named.map(iri)) });
    this.emitTriples(graph, this.store.store.query(query, { results_format: 'application/n-triples' }) as string);
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
   * The first column of a SELECT's answer, each term in N-Triples syntax. Asked as SPARQL TSV text:
   * on a 100k-consignment store, listing the metadata graph's 230k subjects as term objects held the
   * event loop 2.2 s, as text 1.5 s.
   */
  private column(query: string): string[] {
    const lines = (this.store.store.query(query, { results_format: 'text/tab-separated-values' }) as string).split('\n');
    return lines.slice(1).map((line) => line.split('\t', 1)[0]).filter((term) => term !== '');
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
    const graphs = timed(() => this.column(this.queries.text('store/named-graphs'))
      .filter((term) => term.startsWith('<')).map((term) => term.slice(1, -1)));
    graphs.push(DEFAULT_GRAPH);
    const BATCH = 200;
    const SUBJECT_BATCH = 1000;
    for (let i = 0; i < graphs.length; i += BATCH) {
      const batch = graphs.slice(i, i + BATCH);
      for (const graph of batch) {
        if (SYSTEM_GRAPHS.has(graph)) {
          if (this.wholeGraphs.has(graph)) continue;
          const query = graph === DEFAULT_GRAPH
            ? this.queries.text('store/default-graph-subjects')
            : this.queries.bind('store/graph-subjects', { graph: iri(graph) });
          // Blank-node subjects too: the store keeps their labels, so match() finds them by label.
          const subjects = timed(() => this.column(query));
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

export interface SnapshotterOptions {
  dir: string;
  fsync: boolean;
  /** Start a snapshot once the current log generation has grown past this many bytes. */
  logBytesThreshold: number;
  logger: Logger;
  /**
   * Also save a memory image of the store at each snapshot's rotation (a store with an instance of its
   * own only), which a restart restores instead of loading the N-Quads (docs/durability-images.md).
   */
  images?: boolean;
  /** No image while the store holds fewer quads than this (default 0). */
  imageMinQuads?: number;
}

/** Takes snapshots of the embedded store in the background and retires the logs they cover. */
export class Snapshotter {
  private running: Promise<SnapshotResult | undefined> | undefined;
  private timer: NodeJS.Timeout | undefined;
  readonly history: SnapshotResult[] = [];

  constructor(private readonly store: OxigraphStore, private readonly queries: QueryBank, private readonly options: SnapshotterOptions) {}

  /**
   * The log size that starts a snapshot: the configured threshold, or a quarter of the newest
   * snapshot when that is more. Writing a snapshot costs in proportion to the store, so a fixed
   * threshold would spend ever more of a growing node on snapshots (at 60k consignments a 64 MB
   * log is ~4,000 activities against a ~1 GB snapshot); a quarter keeps that cost a constant share of
   * the writes, and the log a restart replays at most a quarter of what it loads.
   */
  threshold(): number {
    return Math.max(this.options.logBytesThreshold, Math.floor(this.newestSnapshotBytes() / 4));
  }

  private newestSnapshotBytes(): number {
    const newest = this.history.at(-1);
    if (newest) return newest.bytes;
    const generation = snapshotGenerations(this.options.dir).at(-1);
    return generation === undefined ? 0 : statSync(join(this.options.dir, snapshotFileName(generation)), { throwIfNoEntry: false })?.size ?? 0;
  }

  /** Checks the log size every `intervalMs` and starts a snapshot when it is past the threshold. */
  schedule(intervalMs = 1000): void {
    this.timer = setInterval(() => {
      if (!this.running && (this.store.log?.size ?? 0) >= this.threshold()) void this.take();
    }, intervalMs);
    this.timer.unref();
  }

  /** Takes a snapshot now (or waits for the one running). Failures are logged; the logs stay. */
  take(): Promise<SnapshotResult | undefined> {
    if (!this.running) {
      this.running = this.run().finally(() => {
        this.running = undefined;
      });
    }
    return this.running;
  }

  private async run(): Promise<SnapshotResult | undefined> {
    const log = this.store.log;
    if (!log) throw new Error('Snapshots need the store to have a change log');
    const { dir, fsync, logger } = this.options;
    const started = performance.now();
    // Rotation and the observer take effect in the same tick: no change can fall between them.
    const generation = log.rotate();
    const estimateAtRotation = this.store.approximateSize;
    // The image is copied in the same tick as the rotation, so it is the same state as the snapshot.
    const captureStarted = performance.now();
    const image = this.options.images && estimateAtRotation >= (this.options.imageMinQuads ?? 0) ? this.store.captureImage(generation, 0) : undefined;
    const captureMs = Math.round(performance.now() - captureStarted);
    const run = new SnapshotRun(this.store, this.queries);
    this.store.setObserver(run.observe);
    const final = join(dir, snapshotFileName(generation));
    const temporary = `${final}.tmp`;
    let handle;
    try {
      handle = await open(temporary, 'w', 0o600);
      const file = handle;
      await run.walk(async (text) => {
        await file.write(text);
      });
      this.store.setObserver(undefined);
      await file.write(`${TRAILER_PREFIX} generation=${generation} quads=${run.quads}\n`);
      if (fsync) await file.sync();
      await file.close();
      handle = undefined;
      await rename(temporary, final);
      if (fsync) syncDirectory(dir);
      const imageWritten = image ? await this.writeImage(generation, { ...image, header: { ...image.header, quads: run.quads } }, captureMs) : undefined;
      await this.retire(generation);
      // The snapshot counted the quads at the rotation exactly: the size estimate starts from there again.
      this.store.correctSize(run.quads, estimateAtRotation);
      const result: SnapshotResult = {
        generation, quads: run.quads, bytes: run.bytes, ms: Math.round(performance.now() - started), longestPauseMs: Math.round(Math.max(run.longestPauseMs, captureMs)),
        ...(imageWritten ? { image: imageWritten } : {}),
      };
      this.history.push(result);
      logger.info('snapshot written', { ...result });
      return result;
    } catch (error) {
      this.store.setObserver(undefined);
      await handle?.close().catch(() => undefined);
      await rm(temporary, { force: true });
      logger.error('snapshot failed; the change logs are kept, so nothing is lost', { error: (error as Error).message, generation });
      return undefined;
    }
  }

  /**
   * Writes the image taken at the rotation, once the snapshot has counted its quads (the image carries
   * the count, checked when it is restored). A failure costs only speed: the snapshot is there.
   */
  private async writeImage(generation: number, image: MemoryImage, captureMs: number): Promise<SnapshotResult['image']> {
    const started = performance.now();
    try {
      const bytes = await writeImage(join(this.options.dir, imageFileName(generation)), image, this.options.fsync);
      if (this.options.fsync) syncDirectory(this.options.dir);
      return { bytes, captureMs, writeMs: Math.round(performance.now() - started) };
    } catch (error) {
      this.options.logger.warn('memory image not written; restarts load the snapshot instead', { error: (error as Error).message, generation });
      return undefined;
    }
  }

  /** Deletes the logs, snapshots and images a newer snapshot covers. */
  private async retire(generation: number): Promise<void> {
    const { dir, fsync } = this.options;
    for (const g of logGenerations(dir)) if (g < generation) await rm(join(dir, logFileName(g)), { force: true });
    for (const g of snapshotGenerations(dir)) if (g < generation) await rm(join(dir, snapshotFileName(g)), { force: true });
    for (const g of imageGenerations(dir)) if (g < generation) await rm(join(dir, imageFileName(g)), { force: true });
    if (fsync) syncDirectory(dir);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
