import type { Logger } from '../../../core/logger.js';
import type { Compactor } from './compaction.js';

export interface SnapshotResult {
  generation: number;
  quads: number;
  bytes: number;
  ms: number;
  /** The longest stretch the event loop was held: the image's capture, or a unit of a walk of the live store. */
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
  /**
   * Between snapshots, an image alone (no N-Quads, no log retired) once the current log has grown past
   * this many bytes and past a sixteenth of the newest image (default IMAGE_LOG_BYTES).
   */
  imageLogBytes?: number;
  /** The share of the newest image the log must reach too (default IMAGE_LOG_SHARE, a sixteenth). */
  imageLogShare?: number;
  /** Compacts the store after a snapshot when its removed quads are due (compaction.ts). */
  compactor?: Compactor;
}

/**
 * The log after an image is what a restart replays (JSON, checksums, Oxigraph's load), at a cost a MB
 * many times the image's own: so between snapshots (which wait for a quarter of the N-Quads, 64 MB at
 * least) an image alone is taken once the log reaches a sixteenth of the newest image. That keeps the
 * replay a small share of a restart, for one background write of the memory per 16 bytes of log each
 * byte of log costs 16 of image writing (the figures: bench/results/2026-12-08-comment-figures.md).
 */
export const IMAGE_LOG_SHARE = 16;
export const IMAGE_LOG_BYTES = 4 * 1024 * 1024;
