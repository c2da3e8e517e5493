import { readFileSync } from 'node:fs';

/**
 * The resident memory of a process split by mapping, from /proc/<pid>/smaps: each WebAssembly memory
 * on its own (the store's, and a copy per SPARQL engine thread or snapshot thread), the rest together.
 * V8 reserves 8 GiB or more of address space for every 32-bit WebAssembly memory, so a mapping that
 * large is one; nothing else in the node maps that much at once.
 */
export interface MemoryMap { wasmMb: number[]; otherMb: number }

const WASM_RESERVATION_KB = 4 * 2 ** 20;

export function memoryMap(pid: number): MemoryMap {
  const wasmMb: number[] = [];
  let otherKb = 0;
  let sizeKb = 0;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    if (line.startsWith('Size:')) sizeKb = Number(line.slice(5).trim().split(/\s+/)[0]);
    else if (line.startsWith('Rss:')) {
      const rssKb = Number(line.slice(4).trim().split(/\s+/)[0]);
      if (sizeKb >= WASM_RESERVATION_KB) { if (rssKb > 0) wasmMb.push(rssKb / 1024); } else otherKb += rssKb;
    }
  }
  return { wasmMb: wasmMb.sort((a, b) => b - a), otherMb: otherKb / 1024 };
}
