import { Worker } from 'node:worker_threads';
import { QueryTimedOut } from '../engine.js';
import type { FromWorker, QueryMessage, ToWorker } from './messages.js';
import { threadScript } from '../../../core/project-paths.js';
import type { EngineThreadDeps } from './engine-thread-deps.js';

export type { EngineImageSettings, EngineThreadDeps } from './engine-thread-deps.js';

/**
 * One engine thread (src/adapters/sparql-endpoint/engine/worker.ts) and the one query it runs. The embedded store answers
 * synchronously and cannot be interrupted, so a query past its time limit is stopped by terminating the
 * thread; a query that breaks the engine's WebAssembly (memory access out of bounds, a panic) drops the
 * thread the same way. Either way only that query fails, and `start` makes a new thread from the data
 * dir and the changes committed meanwhile.
 */
export class EngineThread {
  private worker: Worker | undefined;
  private starting: Promise<void> | undefined;
  private running: { id: number; timer: NodeJS.Timeout; resolve: (text: string) => void; reject: (error: Error) => void } | undefined;
  private nextId = 1;
  private onReady: (message: Extract<FromWorker, { type: 'ready' }>) => void = () => {};
  private onFailed: (error: Error) => void = () => {};
  /** A thread starting to take over from `worker` (replace()), and whether it has read the data dir. */
  private spare:
    { worker: Worker; ready: boolean; started: number; from?: string; quads?: number; done: (replaced: boolean) => void } | undefined;
  /** Whether the thread has read the data dir and takes queries. */
  ready = false;
  /** When it became ready: time spent starting is not a waiting query's. */
  readyAt = 0;
  /** When it last failed to start; the engine waits a moment before trying again. */
  failedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: EngineThreadDeps) {}

  /** Started or starting. */
  get alive(): boolean {
    return this.worker !== undefined;
  }

  /**
   * Writing an engine image: the thread answers nothing meanwhile (seconds at 60k consignments), so no
   * query is given to it, which would wait, or be taken for a query past its limit and end the thread.
   */
  private imaging = false;

  get idle(): boolean {
    return this.ready && this.running === undefined && !this.imaging;
  }

  /** A change (in commit order) or another message; dropped when no thread runs (a new one reads the disk). */
  send(message: ToWorker): void {
    this.worker?.postMessage(message);
    this.spare?.worker.postMessage(message);
  }

  /** Starts a thread, once; resolves when it has read the data dir. */
  start(): Promise<void> {
    this.starting ??= this.spawn();
    return this.starting;
  }

  private newWorker(): Worker {
    const worker = new Worker(threadScript('adapters/sparql-endpoint/engine/worker.js'), {
      workerData: { dataDir: this.deps.dataDir, compaction: this.deps.compaction, images: this.deps.images },
    });
    worker.unref();
    worker.on('message', (message: FromWorker) => this.received(worker, message));
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', (code) => {
      if (code !== 0) this.lost(worker, new Error(`the SPARQL engine thread exited with code ${code}`));
    });
    return worker;
  }

  private spawn(): Promise<void> {
    // From here on every commit is sent to the thread, which holds them until it has read the disk.
    const worker = this.newWorker();
    this.worker = worker;
    const started = performance.now();
    return new Promise<void>((resolve, reject) => {
      this.onReady = ({ quads, from, reason, generation }) => {
        this.ready = true;
        this.readyAt = performance.now();
        if (reason !== undefined)
          this.deps.logger.info('SPARQL engine image not used; the thread read the N-Quads snapshot', { thread: this.deps.index, reason });
        this.deps.logger.info('SPARQL engine thread ready', {
          thread: this.deps.index,
          quads,
          ms: Math.round(this.readyAt - started),
          from,
          ...(generation === undefined ? {} : { generation }),
        });
        if (from === 'snapshot') this.deps.fromSnapshot?.(quads, started);
        resolve();
      };
      this.onFailed = (error) => {
        this.failedAt = performance.now();
        this.discard();
        reject(error);
      };
      // Everything committed before the thread existed must be on disk before it reads the disk.
      this.deps.flushLog().then(
        () => this.send({ type: 'recover', images: this.deps.images !== undefined }),
        (error: Error) => this.onFailed(error),
      );
    });
  }

  /** Runs one query; the thread must be idle. Fails with QueryTimedOut past `timeoutMs`, the thread then replaced. */
  run(message: Omit<QueryMessage, 'type' | 'id'>, timeoutMs: number): Promise<string> {
    if (!this.idle) return Promise.reject(new Error('the SPARQL engine thread is not idle'));
    const id = this.nextId++;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.running?.id !== id) return;
        this.running = undefined;
        // The engine cannot be interrupted: stop the thread; the engine starts a new one.
        this.discard();
        reject(new QueryTimedOut(`The query ran longer than the limit of ${timeoutMs} ms`));
      }, timeoutMs);
      this.running = { id, timer, resolve, reject };
      this.send({ type: 'query', id, ...message });
    });
  }

  /**
   * Asks the thread to save its copy as the engine image of `generation`; posted after the last change
   * before that log (the engine's caller sees to the order). False when the thread cannot: not ready.
   */
  saveImage(generation: number): boolean {
    if (!this.ready || this.imaging || !this.worker || !this.deps.images) return false;
    this.imaging = true;
    this.deps.logger.debug?.('SPARQL engine image asked', { thread: this.deps.index, generation });
    this.worker.postMessage({ type: 'image', generation } satisfies ToWorker);
    return true;
  }

  /**
   * Replaces the thread by a fresh one read from the data dir (the N-Quads snapshot, never an engine
   * image, which holds the removed quads of the copy it was taken of), whose copy holds no removed quads, while
   * this one goes on answering: the new one is sent every change from its start, as a thread started
   * for a query is, and takes over once it has read the disk and the query running here has ended.
   * Resolves whether it took over; a failure leaves this thread as it was.
   */
  replace(): Promise<boolean> {
    if (!this.ready || this.spare) return Promise.resolve(false);
    this.deps.logger.info('SPARQL engine thread being replaced by a compact copy', { thread: this.deps.index });
    const worker = this.newWorker();
    return new Promise<boolean>((resolve) => {
      this.spare = { worker, ready: false, started: performance.now(), done: resolve };
      this.deps.flushLog().then(
        () => worker.postMessage({ type: 'recover' } satisfies ToWorker),
        (error: Error) => this.spareLost(worker, error),
      );
    });
  }

  private fromSpare(spare: NonNullable<EngineThread['spare']>, message: FromWorker): void {
    if (message.type === 'failed') return this.spareLost(spare.worker, new Error(message.message));
    if (message.type !== 'ready') return;
    spare.ready = true;
    spare.from = message.from;
    spare.quads = message.quads;
    if (this.running === undefined) this.promote();
  }

  /** The spare has caught up and nothing runs here: it becomes the thread, and the old one stops. */
  private promote(): void {
    const spare = this.spare;
    if (!spare?.ready) return;
    const old = this.worker;
    this.worker = spare.worker;
    this.spare = undefined;
    // An image the old thread was writing is its own affair now; the new one takes queries.
    this.imaging = false;
    this.readyAt = performance.now();
    this.deps.logger.info('SPARQL engine thread replaced by a compact copy', {
      thread: this.deps.index,
      ms: Math.round(this.readyAt - spare.started),
      from: spare.from,
    });
    // The compact copy is what the next image should hold (the engine prefers the newest thread); an
    // image asked for while it loaded was of an older copy, so the rotation it asks for counts from now.
    if (spare.from === 'snapshot') this.deps.fromSnapshot?.(spare.quads ?? 0, this.readyAt);
    void old?.terminate();
    spare.done(true);
  }

  private spareLost(worker: Worker, error: Error): void {
    if (worker !== this.spare?.worker) return;
    this.deps.logger.warn('SPARQL engine thread not replaced; it goes on as it was', { thread: this.deps.index, error: error.message });
    this.dropSpare();
  }

  private dropSpare(): void {
    const spare = this.spare;
    this.spare = undefined;
    void spare?.worker.terminate();
    spare?.done(false);
  }

  private received(worker: Worker, message: FromWorker): void {
    if (this.spare && worker === this.spare.worker) return this.fromSpare(this.spare, message);
    if (worker !== this.worker) return;
    if (message.type === 'ready') return this.onReady(message);
    if (message.type === 'resumed') {
      this.imaging = false;
      this.deps.available?.();
      return;
    }
    if (message.type === 'imaged') {
      if (message.error !== undefined)
        this.deps.logger.warn('SPARQL engine image not written; threads read the N-Quads snapshot', {
          thread: this.deps.index,
          generation: message.generation,
          error: message.error,
        });
      else
        this.deps.logger.info('SPARQL engine image written', {
          thread: this.deps.index,
          generation: message.generation,
          bytes: message.bytes,
          pauseMs: message.pauseMs,
          ms: message.ms,
        });
      return;
    }
    if (message.type === 'failed') return this.onFailed(new Error(message.message));
    if (message.type === 'compact') {
      this.deps.logger.info('SPARQL engine thread asks to be replaced by a compact copy', {
        thread: this.deps.index,
        dead: message.dead,
        live: message.live,
      });
      return this.deps.compactionWanted?.();
    }
    const running = this.running;
    if (!running || running.id !== message.id) return;
    clearTimeout(running.timer);
    this.running = undefined;
    if (message.type === 'error' && message.fatal) {
      // The engine's memory may be corrupt: every later query on this thread would fail the same way.
      this.deps.logger.warn('SPARQL engine thread replaced after a fatal query error', { thread: this.deps.index, error: message.message });
      this.discard();
    }
    // A spare waiting for this query to end takes over before the next one is given out.
    this.promote();
    if (message.type === 'result') running.resolve(message.text);
    else running.reject(new Error(message.message));
  }

  /** The thread died or was stopped: the query it ran, or its start, fails. */
  private lost(worker: Worker, error: Error): void {
    if (worker === this.spare?.worker) return this.spareLost(worker, error);
    if (worker !== this.worker) return;
    this.deps.logger.warn('SPARQL engine thread lost', { thread: this.deps.index, error: error.message });
    const wasReady = this.ready;
    const running = this.running;
    this.running = undefined;
    if (running) {
      clearTimeout(running.timer);
      running.reject(error);
    }
    if (wasReady) this.discard();
    else this.onFailed(error);
  }

  private discard(): void {
    this.dropSpare();
    this.imaging = false;
    const worker = this.worker;
    this.worker = undefined;
    this.starting = undefined;
    this.ready = false;
    void worker?.terminate();
  }

  /** Stops the thread; a query it runs fails with `error`. */
  async close(error: Error): Promise<void> {
    this.dropSpare();
    this.imaging = false;
    const running = this.running;
    this.running = undefined;
    if (running) {
      clearTimeout(running.timer);
      running.reject(error);
    }
    const worker = this.worker;
    this.worker = undefined;
    this.starting = undefined;
    this.ready = false;
    await worker?.terminate();
  }
}
