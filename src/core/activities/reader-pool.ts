import { Worker } from 'node:worker_threads';
import type { Quad } from '@rdfjs/types';
import { BadRequest, HttpError, ServiceUnavailable, TooManyRequests } from '../errors.js';
import { ReaderLanes } from './reader-lanes.js';
import type { Logger } from '../logger.js';
import { checkJsonShape } from './limits.js';
import type { PayloadReader } from './payload-reader.js';
import type { FromReader } from './reader-messages.js';
import { decodeSteps } from '../rdf/quad-wire.js';
import { inSteps } from '../util/slices.js';
import type { PayloadValidation, ReportFormat, ValidateAnswer } from './validate-payload.js';
import { threadScript } from '../project-paths.js';

interface Job {
  id: number;
  body: unknown;
  validate?: ReportFormat;
  resolve: (answer: Quad[] | ValidateAnswer) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  /** Reads small payloads only (reader-lanes.ts). */
  lane: boolean;
  ready: boolean;
  job: Job | undefined;
  timer?: NodeJS.Timeout;
}

/** A payload still being read after this long has its thread replaced; within the limits one takes seconds at most. */
const DEFAULT_JOB_TIMEOUT_MS = 60_000;

/**
 * How many payloads may wait for a thread: per organisation, and all together (DATASPACE_READER_QUEUE_*);
 * and up to how many JSON values a payload is small, read by a thread of its own besides (0: no such lane,
 * DATASPACE_READER_SMALL_VALUES).
 */
export interface ReaderQueueLimits {
  perOrganisation: number;
  total: number;
  smallValues?: number;
}

export const DEFAULT_READER_QUEUE: ReaderQueueLimits = { perOrganisation: 32, total: 256, smallValues: 0 };

/**
 * Reads payloads on `size` threads of their own, one activity per thread at a time, so JSON-LD
 * expansion and SHACL validation (the inbox's and /validate's) run beside the event loop instead of
 * on it. A refusal comes back as the same HttpError the inline reader throws. The JSON limits are
 * checked here before a payload is handed over (structured cloning recurses, so a deeply nested body
 * would overflow the stack of postMessage itself), and a thread never stays busy: a job that cannot be
 * sent fails alone, a thread that dies or runs past the time limit fails its job and is replaced.
 * Waiting payloads queue per organisation, taken round-robin (the SPARQL engine's FairQueue): one
 * organisation's backlog delays another's payload by at most one payload of each organisation waiting,
 * and an organisation with `perOrganisation` payloads waiting has the next refused (429) until one ends.
 * With `smallValues`, one more thread reads small payloads only (reader-lanes.ts): a small payload then
 * never waits for a large one being read.
 */
export class ReaderPool implements PayloadReader, PayloadValidation {
  private readonly threads: Thread[] = [];
  private readonly waiting: ReaderLanes<Job>;
  private readonly smallValues: number;
  private nextId = 1;
  private closed = false;
  private started = false;

  /** `later`: no thread until start() (a node's start spawns them once it answers: see startReaders). */
  constructor(
    private readonly size: number,
    private readonly logger: Logger,
    private readonly jobTimeoutMs = DEFAULT_JOB_TIMEOUT_MS,
    queue: ReaderQueueLimits = DEFAULT_READER_QUEUE,
    later = false,
  ) {
    this.waiting = new ReaderLanes(queue.perOrganisation, queue.total);
    this.smallValues = queue.smallValues ?? 0;
    if (!later) this.start();
  }

  /** Spawns the threads (once); payloads sent before wait in the queue until a thread is ready. */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    for (let i = 0; i < this.size; i++) this.threads.push(this.spawn(false));
    if (this.smallValues > 0) this.threads.push(this.spawn(true));
  }

  /** A thread that takes any payload has compiled its shapes (the readiness probe waits for it). */
  get ready(): boolean {
    return !this.closed && this.threads.some((thread) => thread.ready && !thread.lane);
  }

  read(body: unknown, organisation = ''): Promise<Quad[]> {
    return this.submit(organisation, body) as Promise<Quad[]>;
  }

  validate(body: Record<string, unknown>, format: ReportFormat, organisation = ''): Promise<ValidateAnswer> {
    return this.submit(organisation, body, format) as Promise<ValidateAnswer>;
  }

  private submit(organisation: string, body: unknown, validate?: ReportFormat): Promise<Quad[] | ValidateAnswer> {
    if (this.closed) return Promise.reject(new Error('The payload reader is closed'));
    return new Promise((resolve, reject) => {
      // A body too deep or too wide is refused before it is queued: a throw here rejects the promise.
      const values = checkJsonShape(body);
      const job = { id: this.nextId++, body, validate, resolve, reject };
      const refused = this.waiting.push(organisation, job, values <= this.smallValues);
      if (refused) {
        reject(
          new TooManyRequests(
            refused.refused === 'owner'
              ? `Your organisation has ${refused.waiting} payloads waiting to be read (DATASPACE_READER_QUEUE_PER_ORG); send the next when one is answered`
              : `The node has ${refused.waiting} payloads waiting to be read (DATASPACE_READER_QUEUE); try again in a moment`,
            1,
          ),
        );
        return;
      }
      this.dispatch();
    });
  }

  private spawn(lane: boolean): Thread {
    const worker = new Worker(threadScript('core/activities/reader-thread.js'));
    const thread: Thread = { worker, lane, ready: false, job: undefined };
    worker.on('message', (message: FromReader) => this.answered(thread, message));
    worker.on('error', (error) => this.lost(thread, error));
    worker.on('exit', (code) => {
      if (!this.closed) this.lost(thread, new Error(`a payload reading thread exited with code ${code}`));
    });
    return thread;
  }

  private dispatch(): void {
    for (const thread of this.threads) {
      if (!thread.ready || thread.job) continue;
      const job = this.waiting.next(thread.lane);
      if (!job) continue;
      try {
        thread.worker.postMessage({ id: job.id, body: job.body, validate: job.validate });
      } catch (error) {
        // Nothing reached the thread: it stays free, and only this payload fails.
        job.reject(new BadRequest(`The payload cannot be read: ${(error as Error).message}`));
        continue;
      }
      thread.job = job;
      thread.timer = setTimeout(
        () => this.lost(thread, new ServiceUnavailable(`Reading the payload took longer than ${this.jobTimeoutMs} ms`)),
        this.jobTimeoutMs,
      );
    }
  }

  private answered(thread: Thread, message: FromReader): void {
    if ('ready' in message) {
      thread.ready = true;
      this.dispatch();
      return;
    }
    const job = thread.job;
    if (!job || job.id !== message.id) return;
    this.free(thread);
    // A slice a turn: a large payload's ~6,000 quads are ~9 ms to decode on a loaded machine.
    if ('wire' in message) inSteps(decodeSteps(message.wire)).then(job.resolve, job.reject);
    else if ('quads' in message) job.resolve(message.quads);
    else if ('validated' in message) job.resolve(message.validated);
    else if ('refused' in message) {
      const { status, name, message: text, properties } = message.refused;
      job.reject(new HttpError(status, name, text, properties));
    } else job.reject(new Error(message.failed));
    this.dispatch();
  }

  private free(thread: Thread): void {
    thread.job = undefined;
    clearTimeout(thread.timer);
    thread.timer = undefined;
  }

  private lost(thread: Thread, error: Error): void {
    const at = this.threads.indexOf(thread);
    if (at < 0) return;
    this.logger.error('payload reading thread lost', { error: error.message });
    const job = thread.job;
    this.free(thread);
    job?.reject(error);
    void thread.worker.terminate();
    if (thread.ready) {
      this.threads[at] = this.spawn(thread.lane);
      return;
    }
    // It died before it could read anything: try again a second later rather than in a tight loop.
    this.threads.splice(at, 1);
    setTimeout(() => {
      if (this.closed) return;
      this.threads.push(this.spawn(thread.lane));
    }, 1000).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.drain()) job.reject(new Error('The node is shutting down'));
    await Promise.all(
      this.threads.map(async (thread) => {
        const job = thread.job;
        this.free(thread);
        job?.reject(new Error('The node is shutting down'));
        await thread.worker.terminate();
      }),
    );
  }
}

/**
 * The payload reader threads, unless the node reads payloads on its own thread (`threads` 0,
 * DATASPACE_READER_THREADS). `later`: spawned only by start(). A node's start spawns them once its app
 * answers: each thread loads its modules and compiles the shapes (~0.4–0.7 s of CPU at start on a
 * 2-core VM, bench/results/2026-12-07-restart.md), which competed with the store's recovery for the
 * cores; the readiness probe answers 503 until one is ready, and payloads sent meanwhile wait for it.
 */
export function startReaders(
  config: { readerThreads: number; readerQueue: ReaderQueueLimits },
  logger: Logger,
  later = false,
): ReaderPool | undefined {
  return config.readerThreads > 0 ? new ReaderPool(config.readerThreads, logger, undefined, config.readerQueue, later) : undefined;
}
