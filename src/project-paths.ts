import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Code runs from src/ (tsx) or dist/src/ (tsc); the bundled data folders sit beside package.json.
function findProjectRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package.json not found above ${start}`);
    dir = parent;
  }
  return dir;
}

export const projectRoot = findProjectRoot(dirname(fileURLToPath(import.meta.url)));
export const contextsDir = resolve(projectRoot, 'contexts');
export const shapesDir = resolve(projectRoot, 'shapes');
export const sparqlDir = resolve(projectRoot, 'sparql');
