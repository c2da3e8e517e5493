/**
 * The node's one publication sequence: every graph, record and system event it writes takes the next
 * number, so readers can page "after seq N" across all of them. Handed out under the ingest lock; the
 * signal and delivery writers borrow it for their system events (see notify/).
 */
export class Sequence {
  private last = 0;

  /** Continues after the highest number already stored. */
  start(last: number): void {
    this.last = last;
  }

  /** The number handed out last. */
  get high(): number {
    return this.last;
  }

  next(): number {
    return ++this.last;
  }
}
