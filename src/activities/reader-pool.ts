import { Worker } from 'node:worker_threads';
import type { Quad } from '@rdfjs/types';
import { HttpError } from '../http/errors.js';
import type { Logger } from '../logger.js';
import type { PayloadReader } from './payload-reader.js';
import type { FromReader } from './reader-messages.js';

interface Job {
  id: number;
  body: unknown;
  resolve: (quads: Quad[]) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  job: Job | undefined;
}

/**
 * Reads payloads on `size` threads of their own, one activity per thread at a time, so JSON-LD
 * expansion and SHACL validation run beside the event loop instead of on it. A refusal comes back as
 * the same HttpError the inline reader throws. A thread that dies fails the activity it held and is
 * replaced.
 */
export class ReaderPool implements PayloadReader {
  private readonly threads: Thread[] = [];
  private readonly waiting: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(size: number, private readonly logger: Logger) {
    for (let i = 0; i < size; i++) this.threads.push(this.spawn());
  }

  /** At least one thread has compiled its shapes and takes payloads (the readiness probe waits for it). */
  get ready(): boolean {
    return !this.closed && this.threads.some((thread) => thread.ready);
  }

  read(body: unknown): Promise<Quad[]> {
    if (this.closed) return Promise.reject(new Error('The payload reader is closed'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, body, resolve, reject });
      this.dispatch();
    });
  }

  private spawn(): Thread {
    const worker = new Worker(new URL('./reader-thread.js', import.meta.url));
    const thread: Thread = { worker, ready: false, job: undefined };
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
      const job = this.waiting.shift();
      if (!job) return;
      thread.job = job;
      thread.worker.postMessage({ id: job.id, body: job.body });
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
    thread.job = undefined;
    if ('quads' in message) job.resolve(message.quads);
    else if ('refused' in message) {
      const { status, name, message: text, properties } = message.refused;
      job.reject(new HttpError(status, name, text, properties));
    } else job.reject(new Error(message.failed));
    this.dispatch();
  }

  private lost(thread: Thread, error: Error): void {
    const at = this.threads.indexOf(thread);
    if (at < 0) return;
    this.logger.error('payload reading thread lost', { error: error.message });
    thread.job?.reject(error);
    void thread.worker.terminate();
    if (thread.ready) {
      this.threads[at] = this.spawn();
      return;
    }
    // It died before it could read anything: try again a second later rather than in a tight loop.
    this.threads.splice(at, 1);
    setTimeout(() => {
      if (this.closed) return;
      this.threads.push(this.spawn());
    }, 1000).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new Error('The node is shutting down'));
    await Promise.all(this.threads.map(async (thread) => {
      thread.job?.reject(new Error('The node is shutting down'));
      await thread.worker.terminate();
    }));
  }
}
