import { rm } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { imageCopyBuffer } from '../wasm/image-pages.js';
import { apartImageFileName, imageFileName, type MemoryImage, writeImage } from '../wasm/memory-image.js';
import type { OxigraphStore } from '../oxigraph-store.js';
import { imageGenerations } from './snapshot-files.js';
import type { SnapshotResult, SnapshotterOptions } from './snapshot-options.js';
import { syncDirectory } from '../../../core/util/sync-directory.js';

/**
 * The images of one rotation: the store's, and its activity log's apart when it keeps one. The activity
 * log is only ever added to, with no blank nodes, so an image of it taken after the rotation is sound
 * too: the logs replayed over it insert again what it holds already.
 */
export interface Images {
  main: MemoryImage;
  apart?: MemoryImage;
}

/** Resident buffers the images are copied into (see imageCopyBuffer). */
interface CopyBuffers {
  main?: Uint8Array;
  apart?: Uint8Array;
}

/**
 * The memory images a snapshot or a checkpoint takes at a log rotation: copied in the rotation's tick,
 * written once counted, and what is known of the newest on disk. Apart from the Snapshotter, which
 * decides when to rotate, because the images are one job of their own (docs/durability-images.md).
 */
export class RotationImages {
  /** Size of the newest image on disk (0: none), which sets when an image alone is worth taking. */
  imageBytes: number;
  /** Size of the newest image of the activity log apart (0: none), for its copy buffer. */
  private apartImageBytes = 0;
  /** The last snapshot made from an image failed: the next one walks the live store. */
  failed = false;

  constructor(
    private readonly store: OxigraphStore,
    private readonly options: SnapshotterOptions,
    private readonly halt: AbortSignal,
  ) {
    const image = imageGenerations(options.dir).at(-1);
    this.imageBytes = image === undefined ? 0 : (statSync(join(options.dir, imageFileName(image)), { throwIfNoEntry: false })?.size ?? 0);
  }

  /**
   * A resident buffer for the image about to be copied, when one may be (images on, the store large
   * enough and imageable). Only awaited when there is one to make: otherwise the rotation stays in the
   * caller's tick.
   */
  copyBuffer(): Promise<CopyBuffers> | undefined {
    const memoryBytes = this.store.instance?.wasm.memory.buffer.byteLength ?? 0;
    const wanted = this.options.images === true && memoryBytes > 0 && this.store.approximateSize >= (this.options.imageMinQuads ?? 0);
    if (!wanted) return undefined;
    const apartBytes = this.store.apart?.instance?.wasm.memory.buffer.byteLength ?? 0;
    return Promise.all([
      imageCopyBuffer(memoryBytes, this.imageBytes, this.halt),
      apartBytes > 0 ? imageCopyBuffer(apartBytes, this.apartImageBytes, this.halt) : undefined,
    ]).then(([main, apart]) => ({ main, apart }));
  }

  /**
   * The images a snapshot is made from, copied in the rotation's tick (so they are exactly the state the
   * new log starts from), carrying the quad estimates (the thread's walk counts them). None when images
   * are off, the store is below their minimum or cannot be imaged, or the last image-made snapshot failed
   * (say the disk refused the image): then the live store is walked, which needs no image written first.
   */
  captureAtRotation(generation: number, estimate: number, into: CopyBuffers | undefined): Images | undefined {
    if (this.failed) {
      this.failed = false;
      return undefined;
    }
    if (!this.options.images || estimate < (this.options.imageMinQuads ?? 0)) return undefined;
    return this.captureEstimated(generation, into) ?? undefined;
  }

  /**
   * The images of the store now, with the quad estimates, not counts (a count holds the event loop for
   * a time that grows with the store: memory-image.ts): marked as such, and counted by whoever restores
   * them. Undefined when the store cannot be imaged, null when a copy failed (most likely no memory for
   * it).
   */
  captureEstimated(generation: number, into: CopyBuffers | undefined): Images | undefined | null {
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
  captureApart(generation: number, into?: Uint8Array): MemoryImage | undefined {
    const apart = this.store.apart;
    return apart && estimated(apart.captureImage(generation, apart.ownApproximateSize, into));
  }

  /**
   * Writes the images taken at the rotation, once the snapshot has counted their quads (an image
   * carries the count, checked when it is restored), the activity log's first: a restore takes the
   * store's image only with it. A failure costs only speed: the snapshot is there.
   */
  async writeImage(generation: number, images: Images, captureMs: number): Promise<SnapshotResult['image']> {
    const started = performance.now();
    const { dir, fsync } = this.options;
    try {
      const apartPath = join(dir, apartImageFileName(generation));
      let apartBytes = 0;
      if (images.apart) apartBytes = await writeImage(apartPath, images.apart, fsync);
      else if (this.store.apart) {
        // A compaction's image of the store, after the rotation's pair: the activity log's is there already.
        apartBytes = statSync(apartPath, { throwIfNoEntry: false })?.size ?? 0;
        if (apartBytes === 0) throw new Error("the activity log's store apart could not be imaged");
      }
      const bytes = await writeImage(join(dir, imageFileName(generation)), images.main, fsync);
      if (fsync) syncDirectory(dir);
      this.imageBytes = bytes;
      this.apartImageBytes = apartBytes;
      return { bytes: bytes + apartBytes, captureMs, writeMs: Math.round(performance.now() - started) };
    } catch (error) {
      this.options.logger.warn('memory image not written; restarts load the snapshot instead', {
        error: (error as Error).message,
        generation,
      });
      return undefined;
    }
  }
}

/** An image taken between snapshots carries the store's estimate of its quads, not a count. */
function estimated(image: MemoryImage | undefined): MemoryImage | undefined {
  return image && { ...image, header: { ...image.header, quadsExact: false } };
}

/** Removes the images (the store's and its activity log's) older than `generation`. */
export async function removeImagesBefore(dir: string, generation: number): Promise<void> {
  for (const g of imageGenerations(dir)) if (g < generation) await rm(join(dir, imageFileName(g)), { force: true });
  for (const g of imageGenerations(dir, true)) if (g < generation) await rm(join(dir, apartImageFileName(g)), { force: true });
}
