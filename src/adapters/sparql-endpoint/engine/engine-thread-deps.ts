import type { Logger } from '../../../core/logger.js';
import type { CompactionSettings } from '../../oxigraph/recovery/compaction-policy.js';

/** Engine images (docs/engine-images.md): written at log rotations, and restored by a thread that starts. */
export interface EngineImageSettings {
  /** No image of a copy holding fewer quads than this (data and catalog together). */
  minQuads: number;
  fsync: boolean;
}

export interface EngineThreadDeps {
  /** Where the embedded store keeps its snapshots and logs; the thread starts from them. */
  dataDir: string;
  /** Resolves once every change committed so far is in the log on disk. */
  flushLog: () => Promise<void>;
  logger: Logger;
  /** Which thread of the engine, for the logs. */
  index: number;
  /** When the thread's copy holds enough removed quads to be replaced (absent: never). */
  compaction?: CompactionSettings;
  /** Engine images on (absent: a thread always starts from the N-Quads snapshot and writes none). */
  images?: EngineImageSettings;
  /**
   * A copy of `quads` quads was read from the N-Quads snapshot (no usable engine image, or a compaction's
   * replacement): the engine may ask for a log rotation, so that the next thread starts from an image.
   */
  fromSnapshot?: (quads: number, startedAt: number) => void;
  /** The thread takes queries again after writing an engine image (the engine gives it the next one). */
  available?: () => void;
  /** The thread asks to be replaced by a compact copy (the engine replaces one thread at a time). */
  compactionWanted?: () => void;
}
