import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { fdatasync, write } from 'node:fs';
import { promisify } from 'node:util';

const writeAsync = promisify(write);
const syncAsync = promisify(fdatasync);

/**
 * The least a durable append can be, for the ceiling server: the text itself, no framing, written and
 * fdatasynced once per batch; appends that arrive while a batch is being synced wait for the next one
 * (group commit), as the node's write-ahead log does.
 */
export class TextLog {
  private readonly fd: number;
  private pending: string[] = [];
  private waiters: (() => void)[] = [];
  private flushing = false;

  constructor(path: string) {
    this.fd = openSync(path, 'a');
  }

  append(text: string): Promise<void> {
    this.pending.push(text);
    const done = new Promise<void>((resolve) => this.waiters.push(resolve));
    if (!this.flushing) void this.flush();
    return done;
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.pending.length > 0) {
      const batch = this.pending.join('');
      const waiters = this.waiters;
      this.pending = [];
      this.waiters = [];
      await writeAsync(this.fd, batch);
      await syncAsync(this.fd);
      for (const resolve of waiters) resolve();
    }
    this.flushing = false;
  }

  close(): void {
    if (this.pending.length > 0) writeSync(this.fd, this.pending.join(''));
    fdatasyncSync(this.fd);
    closeSync(this.fd);
  }
}
