import { rename, rm } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { QueryBank } from '../../queries/query-bank.js';
import { imageCopyBuffer } from '../oxigraph/wasm/image-pages.js';
import { pruneEngineImages } from './engine-image.js';
import { apartImageFileName, imageFileName, type MemoryImage, writeImage } from '../oxigraph/wasm/memory-image.js';
import type { OxigraphStore } from '../oxigraph/oxigraph-store.js';
import { imageGenerations, snapshotFileName, snapshotGenerations } from './snapshot-files.js';
import { SnapshotRun, writeSnapshotFile } from './snapshot-run.js';
import { snapshotFromImage } from './snapshot-from-image.js';
import { IMAGE_LOG_BYTES, IMAGE_LOG_SHARE, type SnapshotResult, type SnapshotterOptions } from './snapshot-options.js';
import { logFileName, logGenerations, syncDirectory } from '../log/write-ahead-log.js';

export type { SnapshotResult, SnapshotterOptions };

/** Takes snapshots of the embedded store in the background and retires the logs they cover. */
/** What rotated the log: a snapshot, or a memory image taken alone between snapshots. */
export type RotationKind = 'snapshot' | 'image';

/**
 * The images of one rotation: the store's, and its activity log's apart when it keeps one. The activity
 * log is only ever added to, with no blank nodes, so an image of it taken after the rotation is sound
 * too: the logs replayed over it insert again what it holds already.
 */
interface Images {
  main: MemoryImage;
  apart?: MemoryImage;
}

/** Resident buffers the images are copied into (see imageCopyBuffer). */
interface CopyBuffers {
  main?: Uint8Array;
  apart?: Uint8Array;
}

export class Snapshotter {
  private running: Promise<SnapshotResult | undefined> | undefined;
  private stopped = false;
  /** Ends a snapshot's thread when the node stops. */
  private readonly halt = new AbortController();
  /** The last snapshot made from an image failed: the next one walks the live store. */
  private imageFailed = false;
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
  /** Size of the newest image on disk (0: none), which sets when an image alone is worth taking. */
  private imageBytes: number;
  /** Size of the newest image of the activity log apart (0: none), for its copy buffer. */
  private apartImageBytes = 0;

  constructor(private readonly store: OxigraphStore, private readonly queries: QueryBank, private readonly options: SnapshotterOptions) {
    const { dir } = options;
    const snapshot = snapshotGenerations(dir).at(-1);
    const current = store.log?.generation ?? 0;
    this.olderLogBytes = logGenerations(dir).filter((g) => (snapshot === undefined || g >= snapshot) && g < current)
      .reduce((n, g) => n + (statSync(join(dir, logFileName(g)), { throwIfNoEntry: false })?.size ?? 0), 0);
    const image = imageGenerations(dir).at(-1);
    this.imageBytes = image === undefined ? 0 : statSync(join(dir, imageFileName(image)), { throwIfNoEntry: false })?.size ?? 0;
  }

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
    if (this.running || this.stopped) return;
    const size = this.store.log?.size ?? 0;
    const sinceSnapshot = this.olderLogBytes + size;
    if (sinceSnapshot >= this.options.logBytesThreshold && sinceSnapshot >= this.threshold()) void this.take();
    else if (this.imageDue(size)) void this.takeImage();
  }

  /** An image alone is due: images on, one to compare with, and the current log past its share. */
  private imageDue(size: number): boolean {
    const { images, imageMinQuads = 0, imageLogBytes = IMAGE_LOG_BYTES, imageLogShare = IMAGE_LOG_SHARE } = this.options;
    return images === true && this.imageBytes > 0 && size >= imageLogBytes && size >= this.imageBytes / imageLogShare
      && this.store.approximateSize >= imageMinQuads;
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
    const making = this.copyBuffer();
    const into = making && await making;
    // Rotation, copy and observer take effect in the same tick: no change can fall between them.
    const generation = log.rotate();
    this.rotated(generation, 'snapshot');
    this.olderLogBytes = 0;
    const estimateAtRotation = this.store.approximateSize;
    // A compaction records the changes from the rotation on; its image replaces the one copied here.
    const compacting = this.options.compactor?.begin() ?? false;
    const captureStarted = performance.now();
    const image = this.captureAtRotation(generation, estimateAtRotation, into);
    const captureMs = Math.round(performance.now() - captureStarted);
    // Without an image, the live store is walked here, copy-on-write; with one, a thread walks the image.
    const run = image ? undefined : new SnapshotRun(this.store, this.queries);
    if (run) this.store.setObserver(run.observe);
    const final = join(dir, snapshotFileName(generation));
    const temporary = `${final}.tmp`;
    try {
      let imageWritten = image && await this.writeImage(generation, image, captureMs);
      if (image && !imageWritten) throw new Error('the image the snapshot is made from was not written');
      const { quads, bytes } = run
        ? await writeSnapshotFile(run, temporary, generation, fsync).then(() => run)
        : await snapshotFromImage({ imagePath: join(dir, imageFileName(generation)), apartImagePath: image?.apart && join(dir, apartImageFileName(generation)), path: temporary, generation, fsync }, this.halt.signal);
      this.store.setObserver(undefined);
      await rename(temporary, final);
      if (fsync) syncDirectory(dir);
      // The snapshot counted the quads at the rotation exactly: the size estimate starts from there again.
      this.store.correctSize(quads, estimateAtRotation);
      // Before the next snapshot can start (this one is still running), so no walk sees the swap.
      const compacted = compacting ? await this.options.compactor!.compact(final, generation) : undefined;
      // Beside the activity log's image written with the rotation's (or one taken now, see Images).
      if (compacted && this.options.images && quads >= (this.options.imageMinQuads ?? 0)) imageWritten = await this.writeImage(generation, { main: compacted, apart: image ? undefined : this.captureApart(generation) }, captureMs);
      await this.retire(generation);
      const result: SnapshotResult = {
        generation, quads, bytes, ms: Math.round(performance.now() - started), longestPauseMs: Math.round(Math.max(run?.longestPauseMs ?? 0, captureMs)),
        ...(imageWritten ? { image: imageWritten } : {}),
      };
      this.history.push(result);
      logger.info('snapshot written', { ...result, walk: run ? 'live store' : 'image, on a thread' });
      return result;
    } catch (error) {
      this.store.setObserver(undefined);
      if (compacting) this.options.compactor!.abandon();
      if (image) this.imageFailed = true;
      await rm(temporary, { force: true });
      if (this.stopped) logger.info('snapshot left unfinished by the node stopping; the change logs are kept', { generation });
      else logger.error('snapshot failed; the change logs are kept, so nothing is lost', { error: (error as Error).message, generation });
      return undefined;
    }
  }

  /**
   * A resident buffer for the image about to be copied, when one may be (images on, the store large
   * enough and imageable). Only awaited when there is one to make: otherwise the rotation stays in the
   * caller's tick.
   */
  private copyBuffer(): Promise<CopyBuffers> | undefined {
    const memoryBytes = this.store.instance?.wasm.memory.buffer.byteLength ?? 0;
    const wanted = this.options.images === true && memoryBytes > 0 && this.store.approximateSize >= (this.options.imageMinQuads ?? 0);
    if (!wanted) return undefined;
    const apartBytes = this.store.apart?.instance?.wasm.memory.buffer.byteLength ?? 0;
    return Promise.all([
      imageCopyBuffer(memoryBytes, this.imageBytes, this.halt.signal),
      apartBytes > 0 ? imageCopyBuffer(apartBytes, this.apartImageBytes, this.halt.signal) : undefined,
    ]).then(([main, apart]) => ({ main, apart }));
  }

  /**
   * The images a snapshot is made from, copied in the rotation's tick (so they are exactly the state the
   * new log starts from), carrying the quad estimates (the thread's walk counts them). None when images
   * are off, the store is below their minimum or cannot be imaged, or the last image-made snapshot failed
   * (say the disk refused the image): then the live store is walked, which needs no image written first.
   */
  private captureAtRotation(generation: number, estimate: number, into: CopyBuffers | undefined): Images | undefined {
    if (this.imageFailed) {
      this.imageFailed = false;
      return undefined;
    }
    if (!this.options.images || estimate < (this.options.imageMinQuads ?? 0)) return undefined;
    return this.captureEstimated(generation, into) ?? undefined;
  }

  /**
   * The images of the store now, with the quad estimates, not counts (~0.35 s at 1.5 M quads with the
   * event loop held): marked as such, and counted by whoever restores them. Undefined when the store
   * cannot be imaged, null when a copy failed (most likely no memory for it).
   */
  private captureEstimated(generation: number, into: CopyBuffers | undefined): Images | undefined | null {
    try {
      const main = estimated(this.store.captureImage(generation, this.store.ownApproximateSize, into?.main));
      if (!main) return undefined;
      if (!this.store.apart) return { main };
      const apart = this.captureApart(generation, into?.apart);
      return apart && { main, apart };
    } catch (error) {
      this.options.logger.warn('memory image not taken', { error: (error as Error).message, generation });
      return null;
    }
  }

  /** The image of the activity log's store apart, if the store keeps one and it can be imaged. */
  private captureApart(generation: number, into?: Uint8Array): MemoryImage | undefined {
    const apart = this.store.apart;
    return apart && estimated(apart.captureImage(generation, apart.ownApproximateSize, into));
  }

  private async runImage(): Promise<SnapshotResult | undefined> {
    const log = this.store.log;
    if (!log) throw new Error('Images need the store to have a change log');
    const making = this.copyBuffer();
    const into = making && await making;
    const started = performance.now();
    const size = log.size;
    // Rotation, count and copy in one tick: the image is exactly the state the new log starts from.
    const generation = log.rotate();
    this.rotated(generation, 'image');
    this.olderLogBytes += size;
    const image = this.captureEstimated(generation, into);
    // No memory for the copy: the logs hold everything, so only the restart's speed suffers.
    if (image === null) return undefined;
    const captureMs = Math.round(performance.now() - started);
    if (!image) {
      // This store cannot be imaged (no instance of its own): stop trying until the next snapshot.
      this.imageBytes = 0;
      return undefined;
    }
    const written = await this.writeImage(generation, image, captureMs);
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

  /**
   * Writes the images taken at the rotation, once the snapshot has counted their quads (an image
   * carries the count, checked when it is restored), the activity log's first: a restore takes the
   * store's image only with it. A failure costs only speed: the snapshot is there.
   */
  private async writeImage(generation: number, images: Images, captureMs: number): Promise<SnapshotResult['image']> {
    const started = performance.now();
    const { dir, fsync } = this.options;
    try {
      const apartPath = join(dir, apartImageFileName(generation));
      let apartBytes = 0;
      if (images.apart) apartBytes = await writeImage(apartPath, images.apart, fsync);
      else if (this.store.apart) {
        // A compaction's image of the store, after the rotation's pair: the activity log's is there already.
        apartBytes = statSync(apartPath, { throwIfNoEntry: false })?.size ?? 0;
        if (apartBytes === 0) throw new Error('the activity log\'s store apart could not be imaged');
      }
      const bytes = await writeImage(join(dir, imageFileName(generation)), images.main, fsync);
      if (fsync) syncDirectory(dir);
      this.imageBytes = bytes;
      this.apartImageBytes = apartBytes;
      return { bytes: bytes + apartBytes, captureMs, writeMs: Math.round(performance.now() - started) };
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
    await removeImagesBefore(dir, generation);
    // The SPARQL engine's images older than the snapshot lost their logs with it (engine-image.ts).
    await pruneEngineImages(dir, generation);
    if (fsync) syncDirectory(dir);
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

/** An image taken between snapshots carries the store's estimate of its quads, not a count. */
function estimated(image: MemoryImage | undefined): MemoryImage | undefined {
  return image && { ...image, header: { ...image.header, quadsExact: false } };
}

/** Removes the images (the store's and its activity log's) older than `generation`. */
async function removeImagesBefore(dir: string, generation: number): Promise<void> {
  for (const g of imageGenerations(dir)) if (g < generation) await rm(join(dir, imageFileName(g)), { force: true });
  for (const g of imageGenerations(dir, true)) if (g < generation) await rm(join(dir, apartImageFileName(g)), { force: true });
}
