// The mocha process uses Oxigraph directly too: the same guard as the node (see the module).
import '../../src/adapters/oxigraph/wasm/js-wasm-calls.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * Temporary directories a test makes and may hand on (a data dir a node is stopped on and started
 * again with, files a command reads). Each is removed when the run ends, whatever the test did with
 * it: before this, every `npm test` left a handful of data dirs behind in the system's tmp.
 */
const made = new Set<string>();

/** A new empty directory under the system's tmp, removed at the end of the run. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

export function removeScratchDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}

/** Mocha's root hook plugin (.mocharc `require`): runs once after every test file. */
export const mochaHooks = { afterAll: removeScratchDirs };
