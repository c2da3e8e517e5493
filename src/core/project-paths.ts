import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/**
 * A worker thread's script, by its path under dist/src. Not `new URL(…, import.meta.url)`: `npm start`
 * runs the node bundled into one file (dist/bundle/main.js, scripts/build.mjs), where every module's
 * import.meta.url is the bundle's, while each thread still starts from its own compiled module.
 */
export const threadScript = (path: string): URL => pathToFileURL(resolve(projectRoot, 'dist', 'src', path));
