import type { Change } from '../../core/ports/quad-store.js';
import { EngineBusy, type EngineRequest, type SparqlEngine } from './engine.js';
import { EngineThread } from './engine/engine-thread.js';
import type { WorkerEngineDeps } from './scheduler-deps.js';

export type { WorkerEngineDeps } from './scheduler-deps.js';
import { Dispatch } from './dispatch.js';
import { DEFAULT_MAX_WAITING_PER_ORG, DEFAULT_SPARQL_IDLE_MS, SPARQL_LIMIT_VARIABLES } from './config.js';

interface Job {
  request: EngineRequest;
  timeoutMs: number;
  queued: number;
  /** Fails the job if it is still waiting when its time limit has passed. */
  expiry?: NodeJS.Timeout;
  resolve: (text: string) => void;
  reject: (error: Error) => void;
}

/** A thread that failed to start is tried again after this long, not in a loop. */
const RESTART_PAUSE_MS = 1000;

/**
 * Runs the SPARQL endpoint's queries on N threads of their own (EngineThread), each holding a copy of
 * the data graphs and of the metadata and policy graphs that decide which of them a caller sees, one
 * query at a time per thread. Waiting queries are taken round-robin between organisations, and an
 * organisation has at most half of the threads (1 of 2) running its queries (Dispatch), so with two
 * threads or more another organisation always finds a thread while one organisation's heavy query runs.
 *
 * Every thread follows every commit: the engine is the first follower of the change feed, which posts
 * each change to each thread once it is durable and before the commit is acknowledged, and a query is
 * posted to its thread after that, on the same port, so whichever thread runs it sees every commit
 * acknowledged before it was asked: a thread buffers the changes it is sent and applies them as one
 * batch before it runs the next query (adapters/sparql-endpoint/engine/worker.ts), so batching never lets a query pass a change
 * posted before it. A thread past its time limit or broken by a query is replaced and only that query fails.
 * The threads start with the first query, so a node whose endpoint is never used pays nothing, and
 * stop again once no query has run for `idleMs`, so one used now and then pays only while it is used.
 */
export class WorkerEngine implements SparqlEngine {
  private readonly threads: EngineThread[];
  private readonly dispatch: Dispatch<Job>;
  private closed = false;
  private readonly idleMs: number;
  /** When a query last arrived or ended. */
  private lastActive = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Threads that asked to be replaced by a compact copy, and whether one is being replaced now. */
  private readonly compactionWanted = new Set<EngineThread>();
  private replacing = false;
  /** Threads replaced by a compact copy so far. */
  replaced = 0;
  /** A rotation was asked for and has not come yet: one is enough for every thread. */
  private rotationAsked = false;
  /** When a thread was last asked to save an image: a thread started before then needs no other. */
  private imageAskedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: WorkerEngineDeps) {
    const count = Math.max(1, deps.threads ?? 2);
    this.threads = Array.from({ length: count }, (_, index) => {
      const thread: EngineThread = new EngineThread({
        dataDir: deps.dataDir,
        flushLog: deps.flushLog,
        logger: deps.logger,
        index,
        compaction: deps.compaction,
        images: deps.images,
        available: () => this.pump(),
        fromSnapshot: (quads, startedAt) => this.wantRotation(quads, startedAt),
        compactionWanted: () => {
          this.compactionWanted.add(thread);
          this.replaceNext();
        },
      });
      return thread;
    });
    const perOrg = deps.maxWaitingPerOrg ?? DEFAULT_MAX_WAITING_PER_ORG;
    this.dispatch = new Dispatch(count, perOrg, deps.maxWaiting ?? 4 * perOrg);
    this.idleMs = deps.idleMs ?? DEFAULT_SPARQL_IDLE_MS;
  }

  /** Threads running now (started or starting). */
  get liveThreads(): number {
    return this.threads.filter((thread) => thread.alive).length;
  }

  /** Notes activity and makes sure the idle check will run `idleMs` after the last of it. */
  private active(): void {
    this.lastActive = performance.now();
    if (this.idleMs > 0 && !this.idleTimer && !this.closed) this.scheduleIdleCheck(this.idleMs);
  }

  private scheduleIdleCheck(ms: number): void {
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      this.releaseIfIdle();
    }, ms);
    // An idle engine must not keep the process alive.
    this.idleTimer.unref();
  }

  /**
   * Stops every thread once none has had a query for `idleMs`: nothing waiting, nothing running, none
   * starting. Changes committed meanwhile are dropped with the threads (EngineThread.send), which is
   * safe: a thread started later reads them from the data dir.
   */
  private releaseIfIdle(): void {
    if (this.closed || this.liveThreads === 0) return;
    const quiet = performance.now() - this.lastActive;
    const busy = this.dispatch.size > 0 || this.threads.some((thread) => thread.alive && !thread.idle);
    if (busy || quiet < this.idleMs) {
      this.scheduleIdleCheck(Math.max(10, this.idleMs - (busy ? 0 : quiet)));
      return;
    }
    const released = this.liveThreads;
    const error = new EngineBusy('The SPARQL engine thread was released while idle');
    for (const thread of this.threads) if (thread.alive) void thread.close(error);
    this.deps.logger.info('SPARQL engine threads released while idle', { threads: released, idleMs: this.idleMs });
  }

  /**
   * Replaces one thread that asked for it by a compact copy (EngineThread.replace: the old one answers
   * until the new one has caught up), then the next: one at a time, so the threads' copies never all
   * restart together and the node never holds more than one extra copy.
   */
  private replaceNext(): void {
    if (this.replacing || this.closed) return;
    const thread = [...this.compactionWanted].find((t) => t.ready);
    if (!thread) return;
    this.compactionWanted.delete(thread);
    this.replacing = true;
    void thread.replace().then((replaced) => {
      if (replaced) this.replaced += 1;
      this.replacing = false;
      // The new copy may take the next query at once.
      this.pump();
      this.replaceNext();
    });
  }

  /** Posts a committed change to every thread (a thread not running drops it: a new one reads the disk). */
  follow(change: Change): void {
    for (const thread of this.threads) thread.send({ type: 'change', change });
  }

  /**
   * A thread read the N-Quads snapshot: asks once for a log rotation, at which imageAt has a copy saved,
   * so that the next thread starts from an image (docs/engine-images.md).
   */
  private wantRotation(quads: number, startedAt: number): void {
    const { images, rotationWanted } = this.deps;
    if (!images || !rotationWanted || quads < images.minQuads || this.rotationAsked || this.closed) return;
    // An image was taken while this thread read the snapshot: the next start has it already.
    if (this.imageAskedAt >= startedAt) return;
    // Not while another thread is still reading the disk: the rotation's writes (the node's image and
    // the engine's) would slow it, and it asks itself once it is ready.
    if (this.threads.some((thread) => thread.alive && !thread.ready)) return;
    this.rotationAsked = true;
    rotationWanted();
  }

  /**
   * One thread that is up saves its copy as the image of `generation` (they all hold the same data, so
   * one image serves them all). None up: no image this time; threads started later read the snapshot.
   * Only at a snapshot's rotation or one the engine asked for, and not while queries wait: the thread
   * writing is held for seconds on a large store, and in a soak an engine image at every rotation
   * filled the border agency's waiting slots (the figures: bench/results/2026-12-07-comment-figures.md). A restart
   * without a recent image replays more of the logs, or reads the snapshot and asks for a rotation.
   */
  imageAt(generation: number, snapshot: boolean): void {
    const asked = this.rotationAsked;
    this.rotationAsked = false;
    if (!asked && (!snapshot || this.dispatch.size > 0)) return;
    // The newest only: after a compaction's replacement, that is the compact copy (an older one would
    // hand its removed quads on to every thread started from its image); one still writing an image
    // writes none now. One running a query saves its copy once the query ends.
    const [newest] = this.threads.filter((thread) => thread.ready).sort((a, b) => b.readyAt - a.readyAt);
    if (newest?.saveImage(generation)) this.imageAskedAt = performance.now();
  }

  run(request: EngineRequest, timeoutMs: number): Promise<string> {
    if (this.closed) return Promise.reject(new EngineBusy('The node is shutting down'));
    this.active();
    return new Promise<string>((resolve, reject) => {
      const owner = request.principal.org.id;
      const job: Job = { request, timeoutMs, queued: performance.now(), resolve, reject };
      const refused = this.dispatch.push(owner, job);
      // A query that cannot start within its time limit (the threads busy with long queries, or
      // restarting) is answered then, rather than left hanging.
      if (!refused) this.expireWaiting(owner, job);
      if (refused?.refused === 'owner') {
        reject(
          new EngineBusy(
            `Your organisation already has ${refused.waiting} queries waiting for the SPARQL engine (${SPARQL_LIMIT_VARIABLES.maxWaitingPerOrg})`,
          ),
        );
      } else if (refused) reject(new EngineBusy(`${refused.waiting} queries are already waiting for the SPARQL engine`));
      else this.pump();
    });
  }

  /**
   * Fails `job` if it still waits after its time limit. Time spent while no thread is up (the first
   * query, or every thread restarting) is not the query's: the limit then counts again.
   */
  private expireWaiting(owner: string, job: Job): void {
    job.expiry = setTimeout(() => {
      if (!this.threads.some((thread) => thread.ready)) return this.expireWaiting(owner, job);
      if (this.dispatch.remove(owner, job))
        job.reject(new EngineBusy(`The query waited longer than the time limit of ${job.timeoutMs} ms for the SPARQL engine`));
    }, job.timeoutMs);
    job.expiry.unref();
  }

  /** Starts the threads that are down while queries wait, then gives each idle thread a query it may take. */
  private pump(): void {
    if (this.closed || this.dispatch.size === 0) return;
    const now = performance.now();
    for (const thread of this.threads) {
      if (!thread.alive && now - thread.failedAt >= RESTART_PAUSE_MS) this.startThread(thread);
    }
    for (const thread of this.threads) {
      if (!thread.idle) continue;
      const next = this.dispatch.next();
      if (!next) return;
      this.runOn(thread, next.owner, next.job);
    }
  }

  private startThread(thread: EngineThread): void {
    // A thread started afresh reads the data dir: whatever its last copy asked for is moot.
    this.compactionWanted.delete(thread);
    thread.start().then(
      () => this.pump(),
      (error: Error) => {
        this.deps.logger.warn('SPARQL engine thread could not start', { error: error.message });
        // With no thread up or coming up, nothing would take the waiting queries: they fail now.
        if (!this.threads.some((t) => t.alive)) {
          for (const job of this.dispatch.drain()) {
            clearTimeout(job.expiry);
            job.reject(new EngineBusy(`The SPARQL engine could not start: ${error.message}`));
          }
        }
      },
    );
  }

  private runOn(thread: EngineThread, owner: string, job: Job): void {
    clearTimeout(job.expiry);
    // Time spent starting the thread is not the query's: it counts from when the engine could take it.
    if (performance.now() - Math.max(job.queued, thread.readyAt) > job.timeoutMs) {
      this.dispatch.finished(owner);
      job.reject(new EngineBusy('The query waited longer than the time limit for the SPARQL engine'));
      this.pump();
      return;
    }
    const { query, format, principal, requested } = job.request;
    const { id, role, country, locations } = principal.org;
    thread
      .run({ query, format, principal: { id, role, country, locations }, requested }, job.timeoutMs)
      .then(job.resolve, job.reject)
      .finally(() => {
        this.dispatch.finished(owner);
        this.active();
        this.pump();
      });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const error = new EngineBusy('The node is shutting down');
    for (const job of this.dispatch.drain()) {
      clearTimeout(job.expiry);
      job.reject(error);
    }
    await Promise.all(this.threads.map((thread) => thread.close(error)));
  }
}
