import { open, rename, rm } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../logger.js';
import type { QueryBank } from '../queries/query-bank.js';
import { imageFileName, type MemoryImage, writeImage } from './memory-image.js';
import type { OxigraphStore } from './oxigraph-store.js';
import { imageGenerations, snapshotFileName, snapshotGenerations, TRAILER_PREFIX } from './snapshot-files.js';
import { SnapshotRun } from './snapshot-run.js';
import { logFileName, logGenerations, syncDirectory } from './write-ahead-log.js';

export interface SnapshotResult {
  generation: number;
  quads: number;
  bytes: number;
  ms: number;
  /** Milliseconds spent listing graphs and copying units with the event loop blocked, longest stretch. */
  longestPauseMs: number;
  /** The memory image written beside the snapshot, when one was. */
  image?: { bytes: number; captureMs: number; writeMs: number };
}

export interface SnapshotterOptions {
  dir: string;
  fsync: boolean;
  /** Start a snapshot once the current log generation has grown past this many bytes. */
  logBytesThreshold: number;
  logger: Logger;
  /**
   * Also save a memory image of the store at each snapshot's rotation (a store with an instance of its
   * own only), which a restart restores instead of loading the N-Quads (docs/durability-images.md).
   */
  images?: boolean;
  /** No image while the store holds fewer quads than this (default 0). */
  imageMinQuads?: number;
}

/** Takes snapshots of the embedded store in the background and retires the logs they cover. */
export class Snapshotter {
  private running: Promise<SnapshotResult | undefined> | undefined;
  private stopped = false;
  readonly history: SnapshotResult[] = [];

  constructor(private readonly store: OxigraphStore, private readonly queries: QueryBank, private readonly options: SnapshotterOptions) {}

  /**
   * The log size that starts a snapshot: the configured threshold, or a quarter of the newest
   * snapshot when that is more. Writing a snapshot costs in proportion to the store, so a fixed
   * threshold would spend ever more of a growing node on snapshots (at 60k consignments a 64 MB
   * log is ~4,000 activities against a ~1 GB snapshot); a quarter keeps that cost a constant share of
   * the writes, and the log a restart replays at most a quarter of what it loads.
   */
  threshold(): number {
    return Math.max(this.options.logBytesThreshold, Math.floor(this.newestSnapshotBytes() / 4));
  }

  private newestSnapshotBytes(): number {
    const newest = this.history.at(-1);
    if (newest) return newest.bytes;
    const generation = snapshotGenerations(this.options.dir).at(-1);
    return generation === undefined ? 0 : statSync(join(this.options.dir, snapshotFileName(generation)), { throwIfNoEntry: false })?.size ?? 0;
  }

  /**
   * Starts a snapshot when the log has grown past the threshold. A follower of the change feed: only a
   * commit grows the log, so checking after each one starts a snapshot as soon as it is due, without
   * a timer. The cheap check comes first: `threshold()` may look at the newest snapshot file.
   */
  committed(): void {
    const size = this.store.log?.size ?? 0;
    if (!this.running && !this.stopped && size >= this.options.logBytesThreshold && size >= this.threshold()) void this.take();
  }

  /** Takes a snapshot now (or waits for the one running). Failures are logged; the logs stay. */
  take(): Promise<SnapshotResult | undefined> {
    if (!this.running) {
      this.running = this.run().finally(() => {
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
    // Rotation and the observer take effect in the same tick: no change can fall between them.
    const generation = log.rotate();
    const estimateAtRotation = this.store.approximateSize;
    // The image is copied in the same tick as the rotation, so it is the same state as the snapshot.
    const captureStarted = performance.now();
    const image = this.options.images && estimateAtRotation >= (this.options.imageMinQuads ?? 0) ? this.store.captureImage(generation, 0) : undefined;
    const captureMs = Math.round(performance.now() - captureStarted);
    const run = new SnapshotRun(this.store, this.queries);
    this.store.setObserver(run.observe);
    const final = join(dir, snapshotFileName(generation));
    const temporary = `${final}.tmp`;
    let handle;
    try {
      handle = await open(temporary, 'w', 0o600);
      const file = handle;
      await run.walk(async (text) => {
        await file.write(text);
      });
      this.store.setObserver(undefined);
      await file.write(`${TRAILER_PREFIX} generation=${generation} quads=${run.quads}\n`);
      if (fsync) await file.sync();
      await file.close();
      handle = undefined;
      await rename(temporary, final);
      if (fsync) syncDirectory(dir);
      const imageWritten = image ? await this.writeImage(generation, { ...image, header: { ...image.header, quads: run.quads } }, captureMs) : undefined;
      await this.retire(generation);
      // The snapshot counted the quads at the rotation exactly: the size estimate starts from there again.
      this.store.correctSize(run.quads, estimateAtRotation);
      const result: SnapshotResult = {
        generation, quads: run.quads, bytes: run.bytes, ms: Math.round(performance.now() - started), longestPauseMs: Math.round(Math.max(run.longestPauseMs, captureMs)),
        ...(imageWritten ? { image: imageWritten } : {}),
      };
      this.history.push(result);
      logger.info('snapshot written', { ...result });
      return result;
    } catch (error) {
      this.store.setObserver(undefined);
      await handle?.close().catch(() => undefined);
      await rm(temporary, { force: true });
      logger.error('snapshot failed; the change logs are kept, so nothing is lost', { error: (error as Error).message, generation });
      return undefined;
    }
  }

  /**
   * Writes the image taken at the rotation, once the snapshot has counted its quads (the image carries
   * the count, checked when it is restored). A failure costs only speed: the snapshot is there.
   */
  private async writeImage(generation: number, image: MemoryImage, captureMs: number): Promise<SnapshotResult['image']> {
    const started = performance.now();
    try {
      const bytes = await writeImage(join(this.options.dir, imageFileName(generation)), image, this.options.fsync);
      if (this.options.fsync) syncDirectory(this.options.dir);
      return { bytes, captureMs, writeMs: Math.round(performance.now() - started) };
    } catch (error) {
      this.options.logger.warn('memory image not written; restarts load the snapshot instead', { error: (error as Error).message, generation });
      return undefined;
    }
  }

  /** Deletes the logs, snapshots and images a newer snapshot covers. */
  private async retire(generation: number): Promise<void> {
    const { dir, fsync } = this.options;
    for (const g of logGenerations(dir)) if (g < generation) await rm(join(dir, logFileName(g)), { force: true });
    for (const g of snapshotGenerations(dir)) if (g < generation) await rm(join(dir, snapshotFileName(g)), { force: true });
    for (const g of imageGenerations(dir)) if (g < generation) await rm(join(dir, imageFileName(g)), { force: true });
    if (fsync) syncDirectory(dir);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}
