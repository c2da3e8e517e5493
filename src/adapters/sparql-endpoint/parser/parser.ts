import { Worker } from 'node:worker_threads';
import type { Logger } from '../../../core/logger.js';
import { QueryLimitExceeded, type GuardLimits } from '../guard.js';
import { QueryRefused, type AnalysedQuery } from '../query.js';
import type { FromParser, ToParser } from './parse-messages.js';
import { FairQueue } from '../../../core/util/fair-queue.js';
import { threadScript } from '../../../core/project-paths.js';
import { DEFAULT_MAX_WAITING_PER_ORG, SPARQL_LIMIT_VARIABLES } from '../config.js';

/** The parse thread failed on this query (it crashed or ran past its time); the thread was replaced. */
export class ParseFailed extends Error {
  override readonly name = 'ParseFailed';
}

/** Too many queries are waiting to be parsed; retrying later may work. */
export class ParserBusy extends Error {
  override readonly name = 'ParserBusy';
}

interface Job {
  message: ToParser;
  /** Fails the job if it is still waiting when the endpoint's time limit has passed. */
  expiry?: NodeJS.Timeout;
  resolve: (analysed: AnalysedQuery) => void;
  reject: (error: Error) => void;
}

/** How many queries may wait to be parsed, and for how long. */
export interface ParseQueueLimits {
  /** Per organisation (DATASPACE_SPARQL_MAX_WAITING_PER_ORG); four times this for everyone together. */
  maxWaitingPerOrg: number;
  /** A query still waiting after this long is refused as busy (the endpoint's time limit). */
  maxWaitMs: number;
}

/**
 * Checks and parses SPARQL queries on a thread of its own, one at a time, round-robin between
 * organisations (a query at the limits still takes a few hundred milliseconds to parse). A query that crashes the thread or runs past `timeoutMs` fails
 * alone: the thread is replaced for the next one. The thread starts with the first query.
 */
export class QueryParser {
  private worker: Worker | undefined;
  /** The thread has loaded its modules: a parse's time starts counting only then. */
  private ready = false;
  private running: { job: Job; timer: NodeJS.Timeout } | undefined;
  private readonly waiting: FairQueue<Job>;
  private nextId = 1;
  private closed = false;

  /** `timeoutMs`: a parse past this kills the thread; within the limits one takes well under a second. */
  constructor(
    private readonly logger?: Logger,
    private readonly timeoutMs = 5000,
    private readonly queue: ParseQueueLimits = { maxWaitingPerOrg: DEFAULT_MAX_WAITING_PER_ORG, maxWaitMs: 10_000 },
  ) {
    this.waiting = new FairQueue<Job>(queue.maxWaitingPerOrg, 4 * queue.maxWaitingPerOrg);
  }

  analyse(owner: string, text: string, maxSolutions: number, limits: GuardLimits): Promise<AnalysedQuery> {
    if (this.closed) return Promise.reject(new ParseFailed('The node is shutting down'));
    return new Promise((resolve, reject) => {
      const job: Job = { message: { id: this.nextId++, text, maxSolutions, limits }, resolve, reject };
      const refused = this.waiting.push(owner, job);
      if (refused?.refused === 'owner') {
        reject(
          new ParserBusy(
            `Your organisation already has ${refused.waiting} queries waiting to be checked (${SPARQL_LIMIT_VARIABLES.maxWaitingPerOrg})`,
          ),
        );
      } else if (refused) reject(new ParserBusy(`${refused.waiting} queries are already waiting to be checked`));
      else {
        this.expireWaiting(owner, job);
        this.pump();
      }
    });
  }

  /** Fails `job` if it still waits after the time limit; time while the thread starts is not the query's. */
  private expireWaiting(owner: string, job: Job): void {
    job.expiry = setTimeout(() => {
      if (!this.ready) return this.expireWaiting(owner, job);
      if (this.waiting.remove(owner, job))
        job.reject(new ParserBusy(`The query waited longer than the time limit of ${this.queue.maxWaitMs} ms to be checked`));
    }, this.queue.maxWaitMs);
    job.expiry.unref();
  }

  private spawn(): Worker {
    const worker = new Worker(threadScript('adapters/sparql-endpoint/parser/parse-thread.js'));
    this.ready = false;
    worker.unref();
    worker.on('message', (message: FromParser | { ready: true }) => {
      if (!('ready' in message)) return this.answered(worker, message);
      if (worker !== this.worker) return;
      this.ready = true;
      this.pump();
    });
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', (code) => this.lost(worker, new Error(`the SPARQL parse thread exited with code ${code}`)));
    return worker;
  }

  private pump(): void {
    if (this.running || this.closed || this.waiting.size === 0) return;
    this.worker ??= this.spawn();
    if (!this.ready) return;
    const worker = this.worker;
    const job = this.waiting.shift()!;
    clearTimeout(job.expiry);
    const timer = setTimeout(() => this.lost(worker, new Error(`parsing took longer than ${this.timeoutMs} ms`)), this.timeoutMs);
    this.running = { job, timer };
    worker.postMessage(job.message);
  }

  private answered(worker: Worker, message: FromParser): void {
    const running = this.running;
    if (worker !== this.worker || !running || running.job.message.id !== message.id) return;
    clearTimeout(running.timer);
    this.running = undefined;
    if ('analysed' in message) running.job.resolve(message.analysed);
    else {
      const refused = message.refused;
      running.job.reject(
        refused.reason === 'limit'
          ? new QueryLimitExceeded(refused.limit, refused.message)
          : new QueryRefused(refused.reason, refused.message),
      );
    }
    this.pump();
  }

  private lost(worker: Worker, error: Error): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    void worker.terminate();
    const running = this.running;
    this.running = undefined;
    if (running) {
      clearTimeout(running.timer);
      this.logger?.warn('SPARQL parse thread replaced', { error: error.message });
      running.job.reject(new ParseFailed(`The query could not be checked: ${error.message}`));
    }
    this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.drain()) {
      clearTimeout(job.expiry);
      job.reject(new ParseFailed('The node is shutting down'));
    }
    this.running?.job.reject(new ParseFailed('The node is shutting down'));
    if (this.running) clearTimeout(this.running.timer);
    this.running = undefined;
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
