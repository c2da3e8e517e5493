import type { Change } from '../../core/ports/quad-store.js';

/**
 * The changes a store commits while a compaction is under way (recovery/compaction.ts): the compacted
 * copy, built from a snapshot in a thread, catches up with them before the store adopts its memory.
 * Records nothing between compactions.
 */
export class ChangeRecorder {
  private recording: Change[] | undefined;

  /** From now on, keeps every committed change for take(). */
  start(): void {
    this.recording = [];
  }

  /** Keeps `change` when recording; called in the tick the change is applied. */
  record(change: Change): void {
    this.recording?.push(change);
  }

  /** The changes recorded since the last call, in commit order. */
  take(): Change[] {
    const recorded = this.recording ?? [];
    if (this.recording) this.recording = [];
    return recorded;
  }

  stop(): void {
    this.recording = undefined;
  }
}
