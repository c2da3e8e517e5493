import { rename, rm } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { QueryBank } from '../../../core/queries/query-bank.js';
import { pruneEngineImages } from './engine-image.js';
import { apartImageFileName, imageFileName } from '../wasm/memory-image.js';
import type { OxigraphStore } from '../oxigraph-store.js';
import { snapshotFileName, snapshotGenerations } from './snapshot-files.js';
import { removeImagesBefore, RotationImages } from './rotation-images.js';
import { SnapshotRun, writeSnapshotFile } from './snapshot-run.js';
import { snapshotFromImage } from './snapshot-from-image.js';
import { IMAGE_LOG_BYTES, IMAGE_LOG_SHARE, type SnapshotResult, type SnapshotterOptions } from './snapshot-options.js';
import { logFileName, logGenerations } from '../log/write-ahead-log.js';
import { syncDirectory } from '../../../core/util/sync-directory.js';

export type { SnapshotResult, SnapshotterOptions };

/** What rotated the log: a snapshot, or a memory image taken alone between snapshots. */
export type RotationKind = 'snapshot' | 'image';

/** Takes snapshots of the embedded store in the background and retires the logs they cover. */
export class Snapshotter {
  private running: Promise<SnapshotResult | undefined> | undefined;
  private stopped = false;
  /** Ends a snapshot's thread when the node stops. */
  private readonly halt = new AbortController();
  readonly history: SnapshotResult[] = [];
  /** Told of each log rotation, in its tick (the SPARQL engine saves its own image there). */
  private readonly rotationListeners: ((generation: number, kind: RotationKind) => void)[] = [];
  /** Images taken alone between snapshots (generation, bytes, ms). */
  readonly checkpoints: { generation: number; quads: number; bytes: number; captureMs: number; writeMs: number }[] = [];
  /**
   * Bytes of the logs since the newest snapshot before the current one: image checkpoints rotate the
   * log without a snapshot, and the next snapshot is due on all the log since the last one.
   */
  private olderLogBytes: number;
  /** The images taken at rotations, and what is known of the newest on disk. */
  private readonly images: RotationImages;

  constructor(
    private readonly store: OxigraphStore,
    private readonly queries: QueryBank,
    private readonly options: SnapshotterOptions,
  ) {
    const { dir } = options;
    const snapshot = snapshotGenerations(dir).at(-1);
    const current = store.log?.generation ?? 0;
    this.olderLogBytes = logGenerations(dir)
      .filter((g) => (snapshot === undefined || g >= snapshot) && g < current)
      .reduce((n, g) => n + (statSync(join(dir, logFileName(g)), { throwIfNoEntry: false })?.size ?? 0), 0);
    this.images = new RotationImages(store, options, this.halt.signal);
  }

  /**
   * The log size that starts a snapshot: the configured threshold, or a quarter of the newest
   * snapshot when that is more. Writing a snapshot costs in proportion to the store, so a fixed
   * threshold would spend ever more of a growing node on snapshots (a log of the default size is a few
   * thousand activities against a snapshot of many times its size: figures in
   * bench/results/2026-12-08-comment-figures.md); a quarter keeps that cost a constant share of the
   * writes, and the log a restart replays at most a quarter of what it loads.
   */
  threshold(): number {
    return Math.max(this.options.logBytesThreshold, Math.floor(this.newestSnapshotBytes() / 4));
  }

  private newestSnapshotBytes(): number {
    const newest = this.history.at(-1);
    if (newest) return newest.bytes;
    const generation = snapshotGenerations(this.options.dir).at(-1);
    return generation === undefined
      ? 0
      : (statSync(join(this.options.dir, snapshotFileName(generation)), { throwIfNoEntry: false })?.size ?? 0);
  }

  /**
   * Starts a snapshot when the log has grown past the threshold. A follower of the change feed: only a
   * commit grows the log, so checking after each one starts a snapshot as soon as it is due, without
   * a timer. The cheap check comes first: `threshold()` may look at the newest snapshot file.
   */
  committed(): void {
    if (this.running || this.stopped) return;
    const size = this.store.log?.size ?? 0;
    const sinceSnapshot = this.olderLogBytes + size;
    if (sinceSnapshot >= this.options.logBytesThreshold && sinceSnapshot >= this.threshold()) void this.take();
    else if (this.imageDue(size)) void this.takeImage();
  }

  /** An image alone is due: images on, one to compare with, and the current log past its share. */
  private imageDue(size: number): boolean {
    const { images, imageMinQuads = 0, imageLogBytes = IMAGE_LOG_BYTES, imageLogShare = IMAGE_LOG_SHARE } = this.options;
    return (
      images === true &&
      this.images.imageBytes > 0 &&
      size >= imageLogBytes &&
      size >= this.images.imageBytes / imageLogShare &&
      this.store.approximateSize >= imageMinQuads
    );
  }

  /**
   * Calls `listener` with the new generation in the tick of every rotation of the log, and whether a
   * snapshot or an image alone made it: every change committed before it is in the older logs, every
   * later one in that generation.
   */
  onRotation(listener: (generation: number, kind: RotationKind) => void): void {
    this.rotationListeners.push(listener);
  }

  private rotated(generation: number, kind: RotationKind): void {
    for (const listener of this.rotationListeners) {
      try {
        listener(generation, kind);
      } catch (error) {
        this.options.logger.warn('a log rotation listener failed', { generation, error: (error as Error).message });
      }
    }
  }

  /** Takes a snapshot now (or waits for the one running). Failures are logged; the logs stay. */
  take(): Promise<SnapshotResult | undefined> {
    return this.start(() => this.run());
  }

  /**
   * Takes an image alone now (or waits for what is running): the log rotates, the memory is copied in
   * the same tick and written in the background; no log or snapshot is retired, only older images.
   */
  takeImage(): Promise<SnapshotResult | undefined> {
    return this.start(() => this.runImage());
  }

  private start(work: () => Promise<SnapshotResult | undefined>): Promise<SnapshotResult | undefined> {
    if (!this.running) {
      this.running = work().finally(() => {
        this.running = undefined;
      });
      // Commits made while it ran may have taken the new log past the threshold already: check once
      // more, as the next commit would. Not after a failure, which would only fail again at once.
      void this.running.then((taken) => {
        if (taken) this.committed();
      });
    }
    return this.running;
  }

  private async run(): Promise<SnapshotResult | undefined> {
    const log = this.store.log;
    if (!log) throw new Error('Snapshots need the store to have a change log');
    const { dir, fsync, logger } = this.options;
    const started = performance.now();
    const making = this.images.copyBuffer();
    const into = making && (await making);
    if (this.store.committing) await this.between();
    // Rotation, copy and observer take effect in the same tick: no change can fall between them.
    const generation = log.rotate();
    this.rotated(generation, 'snapshot');
    this.olderLogBytes = 0;
    const estimateAtRotation = this.store.approximateSize;
    // A compaction records the changes from the rotation on; its image replaces the one copied here.
    const compacting = this.options.compactor?.begin() ?? false;
    const captureStarted = performance.now();
    const image = this.images.captureAtRotation(generation, estimateAtRotation, into);
    const captureMs = Math.round(performance.now() - captureStarted);
    // Without an image, the live store is walked here, copy-on-write; with one, a thread walks the image.
    const run = image ? undefined : new SnapshotRun(this.store, this.queries);
    if (run) this.store.setObserver(run.observe);
    const final = join(dir, snapshotFileName(generation));
    const temporary = `${final}.tmp`;
    try {
      let imageWritten = image && (await this.images.writeImage(generation, image, captureMs));
      if (image && !imageWritten) throw new Error('the image the snapshot is made from was not written');
      const { quads, bytes } = run
        ? await writeSnapshotFile(run, temporary, generation, fsync).then(() => run)
        : await snapshotFromImage(
            {
              imagePath: join(dir, imageFileName(generation)),
              apartImagePath: image?.apart && join(dir, apartImageFileName(generation)),
              path: temporary,
              generation,
              fsync,
            },
            this.halt.signal,
          );
      this.store.setObserver(undefined);
      await rename(temporary, final);
      if (fsync) syncDirectory(dir);
      // The snapshot counted the quads at the rotation exactly: the size estimate starts from there again.
      this.store.correctSize(quads, estimateAtRotation);
      // Before the next snapshot can start (this one is still running), so no walk sees the swap.
      const compacted = compacting ? await this.options.compactor!.compact(final, generation) : undefined;
      // Beside the activity log's image written with the rotation's (or one taken now, see Images).
      if (compacted && this.options.images && quads >= (this.options.imageMinQuads ?? 0))
        imageWritten = await this.images.writeImage(
          generation,
          { main: compacted, apart: image ? undefined : this.images.captureApart(generation) },
          captureMs,
        );
      await this.retire(generation);
      const result: SnapshotResult = {
        generation,
        quads,
        bytes,
        ms: Math.round(performance.now() - started),
        longestPauseMs: Math.round(Math.max(run?.longestPauseMs ?? 0, captureMs)),
        ...(imageWritten ? { image: imageWritten } : {}),
      };
      this.history.push(result);
      logger.info('snapshot written', { ...result, walk: run ? 'live store' : 'image, on a thread' });
      return result;
    } catch (error) {
      this.store.setObserver(undefined);
      if (compacting) this.options.compactor!.abandon();
      if (image) this.images.failed = true;
      await rm(temporary, { force: true });
      if (this.stopped) logger.info('snapshot left unfinished by the node stopping; the change logs are kept', { generation });
      else logger.error('snapshot failed; the change logs are kept, so nothing is lost', { error: (error as Error).message, generation });
      return undefined;
    }
  }

  private async runImage(): Promise<SnapshotResult | undefined> {
    const log = this.store.log;
    if (!log) throw new Error('Images need the store to have a change log');
    const making = this.images.copyBuffer();
    const into = making && (await making);
    if (this.store.committing) await this.between();
    const started = performance.now();
    const size = log.size;
    // Rotation, count and copy in one tick: the image is exactly the state the new log starts from.
    const generation = log.rotate();
    this.rotated(generation, 'image');
    this.olderLogBytes += size;
    const image = this.images.captureEstimated(generation, into);
    // No memory for the copy: the logs hold everything, so only the restart's speed suffers.
    if (image === null) return undefined;
    const captureMs = Math.round(performance.now() - started);
    if (!image) {
      // This store cannot be imaged (no instance of its own): stop trying until the next snapshot.
      this.images.imageBytes = 0;
      return undefined;
    }
    const written = await this.images.writeImage(generation, image, captureMs);
    if (!written) return undefined;
    const quads = image.main.header.quads + (image.apart?.header.quads ?? 0);
    // The older images are superseded; their snapshot and logs stay for the N-Quads fallback.
    const { dir, fsync } = this.options;
    try {
      await removeImagesBefore(dir, generation);
      if (fsync) syncDirectory(dir);
    } catch (error) {
      // An old image left behind is never used (recovery takes the newest): nothing is at risk.
      this.options.logger.warn('an older memory image was not removed', { error: (error as Error).message, generation });
    }
    this.checkpoints.push({ generation, quads, ...written });
    this.options.logger.info('memory image written', { generation, quads, ...written, ms: Math.round(performance.now() - started) });
    return { generation, quads, bytes: 0, ms: Math.round(performance.now() - started), longestPauseMs: captureMs, image: written };
  }

  /** Deletes the logs, snapshots and images a newer snapshot covers. */
  private async retire(generation: number): Promise<void> {
    const { dir, fsync } = this.options;
    for (const g of logGenerations(dir)) if (g < generation) await rm(join(dir, logFileName(g)), { force: true });
    for (const g of snapshotGenerations(dir)) if (g < generation) await rm(join(dir, snapshotFileName(g)), { force: true });
    await removeImagesBefore(dir, generation);
    // The SPARQL engine's images older than the snapshot lost their logs with it (engine-image.ts).
    await pruneEngineImages(dir, generation);
    if (fsync) syncDirectory(dir);
  }

  /**
   * Resolves between two commits, in the tick the rotation is to happen: a commit loading a large
   * insert in slices (staged-inserts.ts) has part of its change in memory, which an image or a walk
   * must not take as the state before the new log. Awaited only then: with none, the rotation stays
   * in the turn the snapshot was asked for.
   */
  private async between(): Promise<void> {
    while (this.store.committing) await this.store.idle();
  }

  /** Waits for the snapshot or image being taken, if any. */
  async idle(): Promise<void> {
    await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.halt.abort();
    this.options.compactor?.stop();
    await this.running;
  }
}
