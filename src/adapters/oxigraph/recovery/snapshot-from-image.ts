import { oneShotThread } from '../../../core/util/one-shot-thread.js';
import { threadScript } from '../../../core/project-paths.js';

export interface ImageSnapshotJob {
  /** The memory image taken at the snapshot's rotation, written already. */
  imagePath: string;
  /** The image of the activity log's store apart, taken with it, when the store keeps one. */
  apartImagePath?: string;
  /** Where the snapshot is written (the caller's temporary name). */
  path: string;
  generation: number;
  fsync: boolean;
}

export interface ImageSnapshotWritten {
  quads: number;
  bytes: number;
}

/**
 * Writes the N-Quads snapshot of the state an image holds, on a thread of its own (snapshot-thread.ts).
 * The walk of the live store holds the event loop for every unit it copies (seconds, listing a large
 * graph's subjects: bench/results/2026-12-08-comment-figures.md); from the image, the node's only
 * pause is the image's capture.
 */
export function snapshotFromImage(job: ImageSnapshotJob, signal?: AbortSignal): Promise<ImageSnapshotWritten> {
  return oneShotThread(threadScript('adapters/oxigraph/recovery/snapshot-thread.js'), job, 'snapshot', signal);
}
