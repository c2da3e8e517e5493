import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger } from '../../../core/logger.js';
import { compactionDue, type CompactionSettings } from './compaction-policy.js';
import { checkImage, unusedBytes, type MemoryImage } from '../wasm/memory-image.js';
import { restoreSteps, type RestoredImage } from '../wasm/image-restore.js';
import { OxigraphStore } from '../oxigraph-store.js';
import type { Change } from '../../../core/ports/quad-store.js';
import { oneShotThread } from '../../../core/util/one-shot-thread.js';
import { threadScript } from '../../../core/project-paths.js';

/**
 * Builds the image of a compact store holding a snapshot's quads (a thread by default; tests inject
 * others); with `apart`, all but the activity log's, which the store keeps apart and never compacts.
 */
export type ImageBuilder = (snapshotPath: string, generation: number, signal?: AbortSignal, apart?: boolean) => Promise<MemoryImage>;

export interface CompactionResult {
  generation: number;
  quads: number;
  /** Removed quads the old memory held. */
  deadBefore: number;
  memoryBytesBefore: number;
  memoryBytesAfter: number;
  /** The thread's load and image, the restore here, the catch-up (changes applied), all told. */
  buildMs: number;
  restoreMs: number;
  caughtUp: number;
  ms: number;
  /** Longest stretch the event loop was held by the restore or the catch-up, and by each. */
  longestPauseMs: number;
  longestRestoreStepMs: number;
  longestCatchUpSliceMs: number;
}

export interface CompactorOptions {
  settings: CompactionSettings;
  logger: Logger;
  build?: ImageBuilder;
  /** A catch-up slice stops applying changes after this long (default 20 ms). */
  sliceMs?: number;
}

/**
 * Changes applied together, at most, before a catch-up slice looks at the time (runs of inserts load
 * at once). Eight at a time keep a slice near its 20 ms with Updates under load, where many more held
 * the event loop several times that (the figures: bench/results/2026-12-08-comment-figures.md).
 */
const CATCH_UP_BATCH = 8;

/** Loads a snapshot in a thread of its own and answers the image of the store it made. */
export function buildImageInThread(snapshotPath: string, generation: number, signal?: AbortSignal, apart = false): Promise<MemoryImage> {
  return oneShotThread(
    threadScript('adapters/oxigraph/recovery/compaction-worker.js'),
    { path: snapshotPath, generation, apart },
    'compaction',
    signal,
  );
}

const memoryBytes = (store: OxigraphStore): number => store.instance?.wasm.memory.buffer.byteLength ?? 0;

/**
 * Gives back the memory of removed quads, which Oxigraph never frees (docs/memory-compaction.md): at
 * a snapshot's rotation, when the removed quads are due (`begin`), the store records every change from
 * then on; once the snapshot is written, a thread loads it into a fresh instance and hands over its
 * image; here the image is restored into a fresh instance a piece a tick, the recorded changes are
 * applied a slice a tick, and the store adopts the fresh memory in the tick it has caught up. Reads,
 * writes and the log go on throughout. The Snapshotter calls it after its walk and before it takes
 * another snapshot, so no walk ever sees the memory change under it. Any failure keeps the old memory.
 */
export class Compactor {
  readonly history: CompactionResult[] = [];
  private stopping = false;
  private readonly stopped = new AbortController();

  constructor(
    private readonly store: OxigraphStore,
    private readonly options: CompactorOptions,
  ) {}

  /** Whether the store's removed quads call for a compaction (only a store with an instance of its own can be). */
  due(): boolean {
    return this.store.instance !== undefined && compactionDue(this.store.deadQuads, this.store.ownApproximateSize, this.options.settings);
  }

  /** In the tick of a snapshot's rotation: whether this snapshot compacts the store; if so, recording starts. */
  begin(): boolean {
    if (this.stopping || !this.due()) return false;
    this.store.recorder.start();
    return true;
  }

  /** The snapshot failed: nothing to compact from. */
  abandon(): void {
    this.store.recorder.stop();
  }

  /** Stops a compaction under way (the node is closing): the old memory is kept. */
  stop(): void {
    this.stopping = true;
    this.stopped.abort();
  }

  /**
   * Compacts from the snapshot just written at `snapshotPath` (the state at the rotation `begin` was
   * called in). Answers the image the store now comes from (the snapshot's state, with no removed
   * quads: the Snapshotter saves it as that generation's image), or undefined when it failed.
   */
  async compact(snapshotPath: string, generation: number): Promise<MemoryImage | undefined> {
    const started = performance.now();
    const deadBefore = this.store.deadQuads;
    const memoryBytesBefore = memoryBytes(this.store);
    const longest = { restore: 0, catchUp: 0 };
    const timed =
      (phase: keyof typeof longest) =>
      <T>(work: () => T): T => {
        const t = performance.now();
        try {
          return work();
        } finally {
          longest[phase] = Math.max(longest[phase], performance.now() - t);
        }
      };
    try {
      const image = await (this.options.build ?? buildImageInThread)(
        snapshotPath,
        generation,
        this.stopped.signal,
        this.store.apart !== undefined,
      );
      const built = performance.now();
      timed('restore')(() => checkImage(image));
      const restored = await this.restore(image, timed('restore'));
      const fresh = new OxigraphStore(undefined, {
        instance: restored.instance,
        store: restored.store,
        quads: image.header.quads,
        room: unusedBytes(image.header),
      });
      const restoredAt = performance.now();
      const caughtUp = await this.catchUp(fresh, timed('catchUp'));
      const result: CompactionResult = {
        generation,
        quads: image.header.quads,
        deadBefore,
        memoryBytesBefore,
        memoryBytesAfter: memoryBytes(this.store),
        buildMs: Math.round(built - started),
        restoreMs: Math.round(restoredAt - built),
        caughtUp,
        ms: Math.round(performance.now() - started),
        longestPauseMs: Math.round(Math.max(longest.restore, longest.catchUp)),
        longestRestoreStepMs: Math.round(longest.restore),
        longestCatchUpSliceMs: Math.round(longest.catchUp),
      };
      this.history.push(result);
      this.options.logger.info('store compacted', { ...result });
      return image;
    } catch (error) {
      this.store.recorder.stop();
      this.options.logger.warn('store compaction failed; the store is kept as it was, and the next snapshot tries again', {
        error: (error as Error).message,
        generation,
      });
      return undefined;
    }
  }

  private checkStopping(): void {
    if (this.stopping) throw new Error('the node is stopping');
  }

  /** Restores the image into a fresh instance, a piece a tick (no one else uses that instance). */
  private async restore(image: MemoryImage, timed: <T>(work: () => T) => T): Promise<RestoredImage> {
    const steps = restoreSteps(image.header, (target, offset) => target.set(image.memory.subarray(offset, offset + target.length)));
    for (;;) {
      this.checkStopping();
      const step = timed(() => steps.next());
      if (step.done) return step.value;
      await yieldToEventLoop();
    }
  }

  /**
   * Applies the recorded changes to `fresh`, a slice of at most `sliceMs` a tick, until none is left,
   * and then, in that same tick, has the store adopt it. Answers how many changes it applied.
   */
  private async catchUp(fresh: OxigraphStore, timed: <T>(work: () => T) => T): Promise<number> {
    const sliceMs = this.options.sliceMs ?? 20;
    let queue: Change[] = [];
    let applied = 0;
    for (;;) {
      this.checkStopping();
      for (const change of this.store.recorder.take()) queue.push(change);
      // Not while a commit loads in slices: part of it is in the old memory, and none of it recorded yet.
      if (queue.length === 0 && !this.store.committing) {
        this.store.adopt(fresh);
        return applied;
      }
      const started = performance.now();
      let i = 0;
      timed(() => {
        while (i < queue.length && (i === 0 || performance.now() - started < sliceMs)) {
          const batch = queue.slice(i, i + CATCH_UP_BATCH);
          fresh.replay(batch);
          i += batch.length;
        }
      });
      applied += i;
      queue = queue.slice(i);
      if (queue.length > 0 || this.store.committing) await yieldToEventLoop();
    }
  }
}
