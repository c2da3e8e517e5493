import oxigraph from 'oxigraph';
import type { Change, Committed, ChangeOp, QuadStore, QueryStore } from '../quad-store.js';
import { UpdateText } from '../update-text.js';
import { OxigraphReads } from './oxigraph-reads.js';
import { countLines, type ChangeObserver } from './oxigraph-terms.js';

export type { ChangeObserver, ParsedChange } from './oxigraph-terms.js';
import { checkedInPlace, type ReplacePlan } from './replace-in-place.js';
import { applyOp, removedBy } from './apply-op.js';
import { applyDeletesThenLoad, deletesGoFirst } from './deletes-then-load.js';
import { ChangeRecorder } from './change-recorder.js';
import { replaySteps } from './replay-steps.js';
import { captureImage } from './wasm/image-capture.js';
import type { MemoryImage } from './wasm/memory-image.js';
import type { OxigraphInstance } from './wasm/oxigraph-instance.js';
import type { WasmHeadroom } from './wasm/wasm-headroom.js';
import { memorySizes, openMemory, pairedImage, type Memory, type MemorySize, type StoreMemory } from './store-memory.js';
import type { WriteAheadLog } from '../log/write-ahead-log.js';
import { APART_GRAPH, splitChange, splitNQuadsBytes, splitNQuadsText } from './graph-apart.js';

/**
 * The embedded store: an in-memory Oxigraph store made durable by a write-ahead log. Given `apart`, the
 * activity log lives in a second store of its own (graph-apart.ts), in its own WebAssembly instance:
 * each change is cut in two and applied to both, and logged once, whole.
 */
export class OxigraphStore extends OxigraphReads implements QuadStore {
  private memory: Memory;
  /** The activity log's store, when it is kept apart; it has no log of its own. */
  readonly apart: OxigraphStore | undefined;
  private observer: ChangeObserver | undefined;
  private readonly updateText = new UpdateText();
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
      const rest: Change[] = [];
      const apart: Change[] = [];
      for (const change of changes) {
        const parts = splitChange(change);
        rest.push(parts.rest);
        apart.push(parts.apart);
      }
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
      const { rest, apart } = typeof nquads === 'string' ? splitNQuadsText(nquads) : splitNQuadsBytes(nquads);
      // Checked before either is loaded: a bad line in one part must leave the other unloaded too.
      if (!trusted && apart.length > 0)
        oxigraph.parse(typeof apart === 'string' ? apart : Buffer.from(apart).toString('utf8'), { format: 'application/n-quads' });
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

  /** Recounts the quads held, the activity log's apart too (costs about 80 ms per million quads). */
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

  async commit(change: Change): Promise<Committed> {
    if (!this.apart) return this.commitOwn(change, change);
    const { rest, apart } = splitChange(change);
    // The rest first: it is checked whole before any of it is applied, so a bad op applies nothing. The
    // activity log's part is the node's own N-Quads (NQuadsBuilder); in the same tick, before the log
    // append resolves, so no read sees one part without the other.
    const committed = this.commitOwn(rest, change);
    if (apart.ops.length > 0) {
      if (this.observer)
        this.observer({
          ops: apart.ops,
          inserted: apart.ops.map((op) => (op.op === 'insert' ? oxigraph.parse(op.nquads, { format: 'application/n-quads' }) : undefined)),
        });
      this.apart.apply(apart);
    }
    return committed;
  }

  /** Applies `change` to this store's own memory and logs `logged` (the whole change it is part of). */
  private commitOwn(change: Change, logged: Change): Promise<Committed> {
    if (change.ops.some((op) => op.op === 'replaceGraph')) return this.commitInPlace(change, logged);
    // One load (after a charged write's few deletes: deletes-then-load.ts) or one update: each is parsed
    // whole before any of it is applied, so a bad op applies nothing. A strict load takes a quad for
    // about a third of what INSERT DATA takes.
    const inserts = change.ops.flatMap((op) => (op.op === 'insert' && op.nquads.length > 0 ? [op.nquads] : []));
    const loads = deletesGoFirst(change.ops);
    const update = loads ? '' : this.updateText.of(change.ops);
    // Only a snapshot in progress needs the inserted quads themselves (to copy what they touch first).
    if (this.observer) {
      const inserted = change.ops.map((op) =>
        op.op === 'insert' && op.nquads.length > 0 ? oxigraph.parse(op.nquads, { format: 'application/n-quads' }) : undefined,
      );
      this.observer({ ops: change.ops, inserted });
    }
    // Nothing may come between applying and appending: the log's order must be the order of memory.
    const removed = loads ? applyDeletesThenLoad(this.store, change.ops) : removedBy(this.store, change.ops);
    if (!loads) this.store.update(update);
    this.removed(removed);
    this.added(inserts.reduce((n, text) => n + countLines(text), 0));
    this.recorder.record(change);
    return Promise.resolve({ durable: this.changeLog ? this.changeLog.append(logged) : Promise.resolve() });
  }

  /** A change that replaces a graph in place, op by op, once checkedInPlace() found nothing wrong with it. */
  private commitInPlace(change: Change, logged: Change): Promise<Committed> {
    const { plans, inserted } = checkedInPlace(change, this.updateText, this.store);
    this.observer?.({ ops: change.ops, inserted });
    // Nothing may come between applying and appending: the log's order must be the order of memory.
    change.ops.forEach((op, i) => this.applyOp(op, plans[i]));
    this.recorder.record(change);
    return Promise.resolve({ durable: this.changeLog ? this.changeLog.append(logged) : Promise.resolve() });
  }

  async size(): Promise<number> {
    return this.approximateSize;
  }

  async close(): Promise<void> {
    await this.changeLog?.close();
  }
}
