/**
 * Commits of the embedded store in the order they were called, while one of them loads in slices
 * (staged-inserts.ts): a commit called meanwhile waits for it, so memory, the log and the change feed
 * (which hears of each commit when it is called) keep one order. With nothing under way a commit
 * does not pass through here at all and applies in the tick it was called, as it always did.
 */
export class CommitQueue {
  private pending = 0;
  private tail: Promise<unknown> = Promise.resolve();

  /** Whether a commit is under way here (loading in slices, or waiting behind one that is). */
  get busy(): boolean {
    return this.pending > 0;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    this.pending += 1;
    const done = this.tail.then(work).finally(() => {
      this.pending -= 1;
    });
    this.tail = done.catch(() => undefined);
    return done;
  }

  /**
   * Resolves once no commit is under way. A caller that must act between commits (a log rotation, a
   * compaction's adoption) checks `busy` again in the tick it acts: another may have started since.
   */
  async idle(): Promise<void> {
    while (this.pending > 0) await this.tail;
  }
}
