import { existsSync, readdirSync } from 'node:fs';
import { APART_IMAGE_FILE, IMAGE_FILE } from '../wasm/memory-image.js';

export const snapshotFileName = (generation: number): string => `snapshot-${String(generation).padStart(8, '0')}.nq`;
const SNAPSHOT_FILE = /^snapshot-(\d{8})\.nq$/;

/** Generations of the complete snapshots in `dir`, ascending (unfinished ones end in .tmp). */
export function snapshotGenerations(dir: string): number[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((f) => SNAPSHOT_FILE.exec(f))
    .filter((m) => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

/** Generations of the complete memory images in `dir` (the store's, or with `apart` its activity log's), ascending. */
export function imageGenerations(dir: string, apart = false): number[] {
  if (!existsSync(dir)) return [];
  const pattern = apart ? APART_IMAGE_FILE : IMAGE_FILE;
  return readdirSync(dir)
    .map((f) => pattern.exec(f))
    .filter((m) => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

/** Comment line between units: a snapshot is loaded in chunks cut only there, so no blank node is split. */
export const UNIT_SEPARATOR = '#\n';
export const TRAILER_PREFIX = '# snapshot complete';
