import { integerFrom as integer, settingDefault } from '../../../core/settings/read.js';

/**
 * When a copy of the store is worth compacting. Oxigraph's in-memory store never frees a removed quad
 * (it keeps every quad with a version range; its transaction end says "TODO: garbage collection"), so
 * memory grows with every drop, delete and Update, whatever the quads held. Loading the live quads
 * into a fresh instance gives that memory back (docs/memory-compaction.md).
 */
export interface CompactionSettings {
  /** Compact once the quads removed since the memory was last compact reach this percentage of the live quads (0: never). */
  percent: number;
  /** …and at least this many: below it the memory held by removed quads is not worth a compaction. */
  minDead: number;
}

/**
 * 50 %: the memory held by removed quads is then at least a third of the store's, and a compaction
 * (which loads the live quads again) costs at most twice the writes that made it due.
 */
export const DEFAULT_COMPACT_PERCENT = settingDefault('DATASPACE_STORE_COMPACT_PERCENT');
/**
 * Removed quads below this hold too little WebAssembly memory to be worth a compaction (figures:
 * bench/results/2026-12-08-comment-figures.md).
 */
export const DEFAULT_COMPACT_MIN_DEAD = settingDefault('DATASPACE_STORE_COMPACT_MIN_QUADS');

export function readCompactionSettings(env: NodeJS.ProcessEnv): CompactionSettings {
  return {
    percent: integer(env, 'DATASPACE_STORE_COMPACT_PERCENT'),
    minDead: integer(env, 'DATASPACE_STORE_COMPACT_MIN_QUADS'),
  };
}

/** Whether `dead` removed quads beside `live` ones call for a compaction. */
export function compactionDue(dead: number, live: number, settings: CompactionSettings): boolean {
  return settings.percent > 0 && dead >= settings.minDead && dead * 100 >= Math.max(0, live) * settings.percent;
}
