import type oxigraph from 'oxigraph';
import type { Change, Committed, ChangeOp, QuadStore, QueryStore } from '../../core/ports/quad-store.js';
import { UpdateText } from '../sparql-server/update-text.js';
import { OxigraphReads } from './oxigraph-reads.js';
import { countLines, datasetOptions, type ChangeObserver } from './oxigraph-terms.js';
import { QueryBank } from '../../core/queries/query-bank.js';

export type { ChangeObserver, ParsedChange } from './oxigraph-terms.js';
import type { ReplacePlan } from './replace-in-place.js';
import { applyOp } from './apply-op.js';
import type { OwnMemory } from './apply-own.js';
import { ChangeRecorder } from './change-recorder.js';
import { replaySteps } from './replay-steps.js';
import { captureImage } from './wasm/image-capture.js';
import type { MemoryImage } from './wasm/memory-image.js';
import type { OxigraphInstance } from './wasm/oxigraph-instance.js';
import type { WasmHeadroom } from './wasm/wasm-headroom.js';
import { memorySizes, openMemory, pairedImage, type Memory, type MemorySize, type StoreMemory } from './store-memory.js';
import type { WriteAheadLog } from './log/write-ahead-log.js';
import { APART_GRAPH, splitChange, splitChanges, splitNQuads } from './graph-apart.js';
import { Pieces, type StageTarget } from './staged-inserts.js';
import { dropUnpublished, type StagingHost } from './pre-staging.js';
import { OwnCommits } from './own-commits.js';
import type { GraphStaging, StagesGraphs } from '../../core/ports/graph-staging.js';

const HOLDS_QUADS = new QueryBank().text('store/graph-holds-quads');

/**
 * The embedded store: an in-memory Oxigraph store made durable by a write-ahead log. Given `apart`, the
 * activity log lives in a second store of its own (graph-apart.ts), in its own WebAssembly instance:
 * each change is cut in two and applied to both, and logged once, whole.
 */
export class OxigraphStore extends OxigraphReads implements QuadStore, StagesGraphs {
  private memory: Memory;
  /** The activity log's store, when it is kept apart; it has no log of its own. */
  readonly apart: OxigraphStore | undefined;
  /** A snapshot's copy-on-write hook while one walks the live store (setObserver). */
  observer: ChangeObserver | undefined;
  private readonly updateText = new UpdateText();
  /** The pieces large inserts were loaded in, one a turn of the event loop (staged-inserts.ts). */
  readonly sliced = new Pieces();
  /** This store's own memory, as staging and a commit apply to it: store and observer read afresh each time. */
  readonly own: StageTarget & OwnMemory & StagingHost = ((self: OxigraphStore) => ({
    get store() {
      return self.store;
    },
    get memory() {
      return self.memory;
    },
    get observer() {
      return self.observer;
    },
    updateText: self.updateText,
    holds: (graph: string) => self.store.query(HOLDS_QUADS, datasetOptions({ defaultGraphs: [], namedGraphs: [graph] })) as boolean,
    drop: (graph: string) => self.applyOp({ op: 'dropGraph', graph }),
    added: (quads: number) => self.added(quads),
    piece: (ms: number) => self.sliced.piece(ms),
    removed: (quads: number) => self.removed(quads),
    applyOp: (op: ChangeOp, plan?: ReplacePlan) => self.applyOp(op, plan),
  }))(this);
  /**
   * Quads held, kept up to date without `store.size` (which counts every quad). Re-inserting a quad
   * that is already there counts it twice until the next `resync()`: an overestimate, which is the
   * safe side for the capacity guard.
   */
  private approxSize = 0;
  /**
   * Quads removed since this store's memory was last loaded afresh: Oxigraph keeps every one of them
   * in memory for good (docs/memory-compaction.md). An overestimate when a removed quad is inserted
   * again (the store then reuses it).
   */
  private dead = 0;
  /** Changes committed since a compaction's snapshot rotation, while one is under way. */
  readonly recorder = new ChangeRecorder();
  /** The commit path (own-commits.ts), which reads this store's memory, observer, apart, recorder and log afresh at every commit. */
  private readonly commits = new OwnCommits(this);

  constructor(
    private changeLog?: WriteAheadLog,
    memory: StoreMemory = 'shared',
    apart?: StoreMemory,
  ) {
    super();
    this.apart = apart === undefined ? undefined : new OxigraphStore(undefined, apart);
    ({ memory: this.memory, quads: this.approxSize, dead: this.dead } = openMemory(memory));
  }

  get activityLog(): QueryStore {
    return this.apart ?? this;
  }

  /** The Oxigraph store that holds `graph`: the activity log's apart, when this store keeps one. */
  holding(graph: string): oxigraph.Store {
    return graph === APART_GRAPH && this.apart ? this.apart.store : this.store;
  }

  /** Every Oxigraph store this one keeps graphs in, each holding graphs none of the others holds. */
  get stores(): oxigraph.Store[] {
    return this.apart ? [this.store, this.apart.store] : [this.store];
  }

  /** The Oxigraph store: read it afresh each time, a compaction replaces it (never during a snapshot's walk). */
  override get store(): oxigraph.Store {
    return this.memory.store;
  }

  /** The instance this store has to itself, when it has one (what a memory image is taken of). */
  get instance(): OxigraphInstance | undefined {
    return this.memory.instance;
  }

  /**
   * The larger of the WebAssembly memories this store has to itself (its own, its activity log's apart):
   * the one nearer the 4 GiB end each can reach, which the capacity guard watches.
   */
  get largestMemoryBytes(): number {
    return Math.max(0, ...this.memorySizes.map(({ bytes }) => bytes));
  }

  /** The size of each WebAssembly memory this store has to itself: its own (main) and its activity log's apart. */
  get memorySizes(): MemorySize[] {
    return memorySizes(this.instance, this.apart?.instance);
  }

  /** Grows the memory this store lives in ahead of its quads (see wasm-headroom.ts). */
  get headroom(): WasmHeadroom {
    return this.memory.headroom;
  }

  /** Quads removed since the memory was last loaded afresh (still held by Oxigraph). */
  get deadQuads(): number {
    return this.dead;
  }

  /**
   * Takes over the memory of `fresh` (a compacted copy that has caught up with every change committed
   * here), dropping this store's own: from here on reads, writes and images use the new memory, and
   * the old instance is freed once nothing references it. Called in the tick the copy caught up. The
   * activity log's store apart, which is never compacted (nothing is removed from it), stays.
   */
  adopt(fresh: OxigraphStore): void {
    this.memory = fresh.memory;
    this.approxSize = fresh.approxSize;
    this.dead = fresh.dead;
    this.recorder.stop();
  }

  /**
   * A memory image of this store as it is now (see memory-image.ts), or undefined when it shares its
   * instance or the image cannot be taken. Synchronous, between calls into the module, so it is a
   * consistent state; `quads` must be the exact count at this point.
   */
  captureImage(generation: number, quads: number, into?: Uint8Array): MemoryImage | undefined {
    const image = this.instance ? captureImage(this.instance, this.store, generation, quads, this.dead, into) : undefined;
    return image && this.apart ? pairedImage(image) : image;
  }

  get log(): WriteAheadLog | undefined {
    return this.changeLog;
  }

  /** Makes later commits durable through `log` (after recovery has replayed into memory). */
  attachLog(log: WriteAheadLog): this {
    this.changeLog = log;
    return this;
  }

  /** Applies a change to memory only: used by recovery replay and the SPARQL engine's copy. */
  apply(change: Change): void {
    if (this.apart) {
      const { rest, apart } = splitChange(change);
      this.apart.apply(apart);
      change = rest;
    }
    for (const op of change.ops) this.applyOp(op);
  }

  /**
   * Replays changes in order, the inserts of consecutive insert-only changes in large loads
   * (replay-steps.ts); with the activity log apart, each store's part in order (the two share no graph).
   */
  replay(changes: Iterable<Change>): void {
    if (this.apart) {
      const { rest, apart } = splitChanges(changes);
      this.apart.replay(apart);
      changes = rest;
    }
    for (const step of replaySteps(changes)) {
      if (typeof step !== 'string') this.apply(step);
      else {
        this.store.load(step, { format: 'application/n-quads', lenient: true, no_transaction: true });
        this.added(countLines(step));
      }
    }
  }

  /** `plan`: a replaceGraph's, made when its commit was checked (a replay makes its own). */
  private applyOp(op: ChangeOp, plan?: ReplacePlan): void {
    const { removed, added } = applyOp(this.store, this.updateText, op, plan);
    this.removed(removed);
    if (added !== undefined) this.added(added);
  }

  private removed(quads: number): void {
    this.approxSize -= quads;
    this.dead += quads;
  }

  private added(quads: number): void {
    this.approxSize += quads;
    this.headroom.added(quads);
  }

  /**
   * Loads N-Quads (a snapshot's chunk, an import), each line into the store of its graph: trusted (our
   * own snapshots) without a transaction or a strict parse, otherwise checked, and applied only if every
   * line of it is valid.
   */
  loadNQuads(nquads: string | Uint8Array, trusted: boolean): void {
    if (this.apart) {
      const { rest, apart } = splitNQuads(nquads, trusted);
      if (apart.length > 0) this.apart.loadNQuads(apart, trusted);
      nquads = rest;
    }
    if (nquads.length === 0) return;
    if (trusted) this.store.load(nquads, { format: 'application/n-quads', lenient: true, no_transaction: true });
    else this.store.load(nquads, { format: 'application/n-quads' });
  }

  /** Loads trusted N-Quads (a snapshot chunk) without a transaction. */
  loadTrusted(nquads: string | Uint8Array): void {
    this.loadNQuads(nquads, true);
  }

  /** Recounts the quads held, the activity log's apart too: a cost that grows with the store (recovery.ts). */
  resync(): number {
    this.approxSize = this.store.size;
    return this.approxSize + (this.apart?.resync() ?? 0);
  }

  /** Quads held, the activity log's apart too. */
  get approximateSize(): number {
    return this.approxSize + (this.apart?.approximateSize ?? 0);
  }

  /** Quads held in this store's own instance (what its memory image holds). */
  get ownApproximateSize(): number {
    return this.approxSize;
  }

  /** `exact` quads were held (all told) when the estimate was `estimateThen`; keeps what changed since. */
  correctSize(exact: number, estimateThen: number): void {
    this.approxSize += exact - estimateThen;
  }

  setObserver(observer: ChangeObserver | undefined): void {
    this.observer = observer;
  }

  /** Whether a commit is under way that loads in slices, or waits behind one that does. */
  get committing(): boolean {
    return this.commits.busy;
  }

  /** Resolves once no commit is under way (see `committing`). */
  idle(): Promise<void> {
    return this.commits.idle();
  }

  /** Stages a large fresh graph ahead of its commit (pre-staging.ts), in the main store (never the apart one). */
  stage(graph: string, nquads: string): GraphStaging | undefined {
    return this.commits.stage(graph, nquads);
  }

  /** Drops the graphs staged ahead of a commit that never came (a snapshot or image kept them); at start. */
  dropUnpublished(): string[] {
    return dropUnpublished(this.store, (graph) => this.applyOp({ op: 'dropGraph', graph }));
  }

  commit(change: Change): Promise<Committed> {
    return this.commits.commit(change);
  }

  async size(): Promise<number> {
    return this.approximateSize;
  }

  async close(): Promise<void> {
    await this.changeLog?.close();
  }
}
