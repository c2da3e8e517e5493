import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.js';
import type { Principal } from '../auth/principal.js';
import type { Change, Committed, QuadStore } from '../store/quad-store.js';
import { DelegatingStore } from '../store/delegating-store.js';
import type { OpenedStore } from '../store/open-store.js';
import { EngineBusy, QueryTimedOut, StoreEngine, type EngineRequest, type SparqlEngine } from './sparql-engine.js';
import type { FromWorker, ToWorker } from './sparql-worker-messages.js';
import { FairQueue } from './sparql-scheduler.js';
import { SPARQL_LIMIT_VARIABLES } from './sparql-config.js';

export interface WorkerEngineDeps {
  /** Where the embedded store keeps its snapshots and logs; the engine thread starts from them. */
  dataDir: string;
  /** Resolves once every change committed so far is in the log on disk. */
  flushLog: () => Promise<void>;
  logger: Logger;
  /** Queries waiting for the engine beyond this are refused as busy. */
  maxWaiting?: number;
  /** Queries one organisation may have waiting; beyond this that organisation alone is refused as busy. */
  maxWaitingPerOrg?: number;
}

interface Job {
  request: EngineRequest;
  timeoutMs: number;
  queued: number;
  /** Fails the job if it is still waiting when its time limit has passed. */
  expiry?: NodeJS.Timeout;
  resolve: (text: string) => void;
  reject: (error: Error) => void;
}

/** Passes every change committed through it to `follow`, after the store has taken it. */
export class FollowedStore extends DelegatingStore {
  constructor(inner: QuadStore, private readonly follow: (change: Change) => void) {
    super(inner);
  }

  override async commit(change: Change): Promise<Committed> {
    const committed = await this.inner.commit(change);
    this.follow(change);
    return committed;
  }
}

/**
 * Runs the SPARQL endpoint's queries on a thread of their own holding a copy of the data graphs and of
 * the metadata and policy graphs that decide which of them a caller sees, one query at a time, taken
 * round-robin between organisations (FairQueue). The embedded store answers synchronously and cannot be interrupted, so a query past
 * the time limit is stopped by terminating the thread; a new one starts from the data dir and the
 * changes committed meanwhile. A query that breaks the engine's WebAssembly (memory access out of
 * bounds, a panic) fails alone the same way: the broken thread is dropped and the next query starts a
 * new one. The thread starts with the first query, so a node whose endpoint is never used pays nothing.
 */
export class WorkerEngine implements SparqlEngine {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private readonly waiting: FairQueue<Job>;
  private running: { job: Job; id: number; timer: NodeJS.Timeout } | undefined;
  private nextId = 1;
  private readyAt = 0;
  private closed = false;

  constructor(private readonly deps: WorkerEngineDeps) {
    this.waiting = new FairQueue(deps.maxWaitingPerOrg ?? 8, deps.maxWaiting ?? 64);
  }

  /** The store whose commits the engine thread follows; every commit of the node must go through it. */
  follow(store: QuadStore): QuadStore {
    return new FollowedStore(store, (change) => this.send({ type: 'change', change }));
  }

  run(request: EngineRequest, timeoutMs: number): Promise<string> {
    if (this.closed) return Promise.reject(new EngineBusy('The node is shutting down'));
    return new Promise<string>((resolve, reject) => {
      const owner = request.principal.org.id;
      const job: Job = { request, timeoutMs, queued: performance.now(), resolve, reject };
      const refused = this.waiting.push(owner, job);
      // A query that cannot start within its time limit (the engine busy with others' long queries, or
      // restarting) is answered then, rather than left hanging.
      if (!refused) {
        job.expiry = setTimeout(() => {
          if (this.waiting.remove(owner, job)) reject(new EngineBusy(`The query waited longer than the time limit of ${timeoutMs} ms for the SPARQL engine`));
        }, timeoutMs);
        job.expiry.unref();
      }
      if (refused?.refused === 'owner') {
        reject(new EngineBusy(`Your organisation already has ${refused.waiting} queries waiting for the SPARQL engine (${SPARQL_LIMIT_VARIABLES.maxWaitingPerOrg})`));
      } else if (refused) reject(new EngineBusy(`${refused.waiting} queries are already waiting for the SPARQL engine`));
      else void this.pump();
    });
  }

  private send(message: ToWorker): void {
    this.worker?.postMessage(message);
  }

  private start(): Promise<void> {
    const worker = new Worker(new URL('./sparql-worker.js', import.meta.url), { workerData: { dataDir: this.deps.dataDir } });
    // From here on every commit is sent to the thread, which holds them until it has read the disk.
    this.worker = worker;
    worker.unref();
    worker.on('message', (message: FromWorker) => this.received(worker, message));
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', (code) => {
      if (code !== 0 && this.worker === worker) this.lost(worker, new Error(`the SPARQL engine thread exited with code ${code}`));
    });
    const started = performance.now();
    return new Promise<void>((resolve, reject) => {
      this.onReady = (quads) => {
        this.readyAt = performance.now();
        this.deps.logger.info('SPARQL engine thread ready', { quads, ms: Math.round(this.readyAt - started) });
        resolve();
      };
      this.onFailed = reject;
      // Everything committed before the thread existed must be on disk before it reads the disk.
      this.deps.flushLog().then(() => this.send({ type: 'recover' }), reject);
    });
  }

  private onReady: (quads: number) => void = () => {};
  private onFailed: (error: Error) => void = () => {};

  private received(worker: Worker, message: FromWorker): void {
    if (worker !== this.worker) return;
    if (message.type === 'ready') return this.onReady(message.quads);
    if (message.type === 'failed') return this.onFailed(new Error(message.message));
    const running = this.running;
    if (!running || running.id !== message.id) return;
    clearTimeout(running.timer);
    this.running = undefined;
    if (message.type === 'result') running.job.resolve(message.text);
    else running.job.reject(new Error(message.message));
    if (message.type === 'error' && message.fatal) {
      // The engine's memory may be corrupt: every later query on this thread would fail the same way.
      this.deps.logger.warn('SPARQL engine thread replaced after a fatal query error', { error: message.message });
      this.discard();
    }
    void this.pump();
  }

  /** The thread died or was stopped: the query it ran fails, the next query starts a new thread. */
  private lost(worker: Worker, error: Error): void {
    if (worker !== this.worker) return;
    this.deps.logger.warn('SPARQL engine thread lost', { error: error.message });
    this.discard();
    const running = this.running;
    this.running = undefined;
    if (running) {
      clearTimeout(running.timer);
      running.job.reject(error);
    }
    void this.pump();
  }

  private discard(): void {
    const worker = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    void worker?.terminate();
  }

  private async pump(): Promise<void> {
    if (this.running || this.waiting.size === 0 || this.closed) return;
    if (!this.ready) {
      this.ready = this.start();
      this.ready.catch(() => {});
    }
    const ready = this.ready;
    try {
      await ready;
    } catch (error) {
      if (this.ready === ready) this.discard();
      for (const job of this.waiting.drain()) job.reject(new EngineBusy(`The SPARQL engine could not start: ${(error as Error).message}`));
      return;
    }
    if (this.running || this.ready !== ready) return;
    const job = this.waiting.shift();
    if (!job) return;
    clearTimeout(job.expiry);
    // Time spent starting the thread is not the query's: it counts from when the engine could take it.
    if (performance.now() - Math.max(job.queued, this.readyAt) > job.timeoutMs) {
      job.reject(new EngineBusy('The query waited longer than the time limit for the SPARQL engine'));
      void this.pump();
      return;
    }
    const id = this.nextId++;
    const timer = setTimeout(() => {
      if (this.running?.id !== id) return;
      this.running = undefined;
      // The engine cannot be interrupted: stop the thread; the next query starts a new one.
      this.discard();
      job.reject(new QueryTimedOut(`The query ran longer than the limit of ${job.timeoutMs} ms`));
      void this.pump();
    }, job.timeoutMs);
    this.running = { job, id, timer };
    const { query, format, principal, requested } = job.request;
    const { id: org, role, country, locations } = principal.org;
    this.send({ type: 'query', id, query, format, principal: { id: org, role, country, locations }, requested });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.drain()) job.reject(new EngineBusy('The node is shutting down'));
    if (this.running) {
      clearTimeout(this.running.timer);
      this.running.job.reject(new EngineBusy('The node is shutting down'));
      this.running = undefined;
    }
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}

/**
 * The engine for the node's store: a thread of its own on the embedded store; the server itself behind
 * the SPARQL protocol, over the graphs `visibleGraphs` gives.
 */
export function sparqlEngineFor(
  opened: OpenedStore, dataDir: string, logger: Logger, visibleGraphs: (principal: Principal) => Promise<string[]>, maxWaitingPerOrg?: number,
): SparqlEngine {
  const embedded = opened.embedded;
  if (!embedded) return new StoreEngine(opened.store, visibleGraphs);
  return new WorkerEngine({ dataDir, logger, flushLog: async () => embedded.store.log?.flush(), maxWaitingPerOrg });
}
