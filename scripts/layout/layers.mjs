// The layer rule as the move sees it: a module of src/core/ imports only src/core/. Lists the imports
// that break it, by where both ends land, so they can be fixed (a port) before the move.
import { dirname, join, posix } from 'node:path';
import ts from 'typescript';
import { COMPOSITION_ROOT } from './mapping.mjs';
import { pathDestination } from './paths.mjs';

const landsOutsideCore = (path) => path.startsWith('src/adapters/') || COMPOSITION_ROOT.includes(path.replace(/\.js$/, '.ts'));

/** "core file → target" for every import of a file that lands in src/core/ from one that lands outside it. */
export function layerBreaches(files, moves, readText) {
  const breaches = [];
  for (const file of files) {
    const to = moves.get(file) ?? file;
    if (!to.startsWith('src/core/') || !file.endsWith('.ts')) continue;
    for (const { fileName } of ts.preProcessFile(readText(file), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = pathDestination(posix.normalize(join(dirname(file), fileName)));
      if (landsOutsideCore(target)) breaches.push(`${to} → ${target}`);
    }
  }
  return breaches;
}
