import { Worker } from 'node:worker_threads';

/**
 * Runs `script` on a thread of its own for one answer: its first message. The thread is ended once it
 * has answered; `signal` ends it early (a node closing does not wait for seconds of work it would
 * throw away), and the promise then rejects.
 */
export function oneShotThread<T>(script: URL, workerData: unknown, name: string, signal?: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData });
    const abort = () => void worker.terminate();
    signal?.addEventListener('abort', abort, { once: true });
    let answered = false;
    // The listener must go with the thread: left on the long-lived signal, it would keep the worker,
    // and the answer it sent, alive for good (measured: a compaction image's bytes stayed resident).
    const settle = () => {
      answered = true;
      signal?.removeEventListener('abort', abort);
    };
    worker.once('message', (answer: T) => {
      settle();
      resolve(answer);
      void worker.terminate();
    });
    worker.once('error', (error) => {
      settle();
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the ${name} thread exited with code ${code} before answering`));
      settle();
    });
  });
}
