import type { Logger } from '../../core/logger.js';
import type { CompactionSettings } from '../oxigraph/recovery/compaction-policy.js';
import type { EngineImageSettings } from './engine/engine-thread-deps.js';

/** What the SPARQL engine's scheduler (scheduler.ts) is made with: the data dir, its threads and their bounds. */
export interface WorkerEngineDeps {
  /** Where the embedded store keeps its snapshots and logs; the engine threads start from them. */
  dataDir: string;
  /** Resolves once every change committed so far is in the log on disk. */
  flushLog: () => Promise<void>;
  logger: Logger;
  /** Engine threads, each with its own copy of the data (DATASPACE_SPARQL_THREADS); default 2. */
  threads?: number;
  /** Queries waiting for the engine beyond this are refused as busy. */
  maxWaiting?: number;
  /** Queries one organisation may have waiting; beyond this that organisation alone is refused as busy. */
  maxWaitingPerOrg?: number;
  /**
   * With no query for this long, every thread is stopped and its copy of the data freed; the next query
   * starts them again from the data dir (DATASPACE_SPARQL_IDLE_MS; 0 keeps them for good). Default 5 min.
   */
  idleMs?: number;
  /** When a thread's copy holds enough removed quads to be replaced by a fresh one (absent: never). */
  compaction?: CompactionSettings;
  /** Engine images: one thread saves its copy at each log rotation, and threads start from the newest. */
  images?: EngineImageSettings;
  /**
   * Asks for a log rotation (an image alone of the node's store), at which a thread saves its copy: called
   * when a thread had to read the N-Quads snapshot, so that the next one starts from an image.
   */
  rotationWanted?: () => void;
}
