import { readFileSync } from 'node:fs';

/**
 * The resident memory of a process split by mapping, from /proc/<pid>/smaps: each mapping with 128 MB
 * or more resident on its own, the rest together. In the node the large ones are the WebAssembly
 * memories (the store's, one per SPARQL engine thread's copy, a snapshot thread's restored image) and
 * an image's copy buffer while a memory image is written; Node maps each of those as one anonymous
 * mapping of its current size.
 */
export interface MemoryMap {
  largeMb: number[];
  otherMb: number;
}

const LARGE_KB = 128 * 1024;

export function memoryMap(pid: number): MemoryMap {
  const largeMb: number[] = [];
  let otherKb = 0;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    if (line.startsWith('Rss:')) {
      const rssKb = Number(line.slice(4).trim().split(/\s+/)[0]);
      if (rssKb >= LARGE_KB) largeMb.push(rssKb / 1024);
      else otherKb += rssKb;
    }
  }
  return { largeMb: largeMb.sort((a, b) => b - a), otherMb: otherKb / 1024 };
}

/** Resident MiB of each mapping of a process, keyed by its size in bytes (anonymous and named alike). */
export function residentBySize(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let size: number | undefined;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) /.exec(line);
    if (range) {
      size = parseInt(range[2]!, 16) - parseInt(range[1]!, 16);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && size !== undefined) out.set(size, (out.get(size) ?? 0) + Number(rss[1]) / 1024);
  }
  return out;
}
