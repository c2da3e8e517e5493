// Where an old path goes under the table of mapping.mjs: files of src/, the unit tests that mirror
// them (test/unit/<folder>/ follows src/<folder>/), and any path text names (with .js for .ts, a
// folder, or dist/ before it). Pure functions, so the plan is computed before anything moves.
import { NEW_ROOTS, RULES, UNIT_TEST_OWN } from './mapping.mjs';

const FOLDER_RULES = RULES.filter(([from]) => from.endsWith('/')).sort((a, b) => b[0].length - a[0].length);
const FILE_RULES = new Map(RULES.filter(([from]) => !from.endsWith('/')));

/** Old folders of src/ that a rule names: a path text gives inside src/ starts with one of them. */
export const OLD_TOP_FOLDERS = new Set(FOLDER_RULES.map(([from]) => from.split('/')[1]));

/** The new place of a source path (src/…, a file or a folder ending in "/"), or null when no rule takes it. */
export function sourceDestination(path) {
  // A file row wins even inside the new roots: that is how a file moves again within them.
  const exact = FILE_RULES.get(path);
  if (exact) return exact;
  // A path named as built (.js) or as a declaration follows the rule of its .ts file.
  for (const [from, to] of [
    ['.js', '.ts'],
    ['.d.ts', '.ts'],
  ]) {
    if (path.endsWith(from)) {
      const rule = FILE_RULES.get(path.slice(0, -from.length) + to);
      if (rule) return rule.slice(0, -to.length) + from;
    }
  }
  if (NEW_ROOTS.some((root) => path.startsWith(root)) || path === 'src/' || path === 'src') return path;
  const asFolder = path.endsWith('/') ? path : `${path}/`;
  for (const [from, to] of FOLDER_RULES) {
    if (path.startsWith(from)) return to + path.slice(from.length);
    if (asFolder === from) return path.endsWith('/') ? to : to.slice(0, -1);
  }
  return null;
}

/** The new place of a unit test: test/unit/<x>.test.ts mirrors src/<x>.ts; null when it mirrors nothing a rule takes. */
export function unitTestDestination(path) {
  const rest = path.slice('test/unit/'.length);
  if (UNIT_TEST_OWN.some((own) => path.startsWith(own))) return path;
  const test = rest.match(/^(.*)\.test\.ts$/);
  const source = sourceDestination(test ? `src/${test[1]}.ts` : `src/${rest}`);
  if (source === null) return null;
  const mirrored = `test/unit/${source.slice('src/'.length)}`;
  return test ? mirrored.replace(/\.ts$/, '.test.ts') : mirrored;
}

/** The new place of a file of the repository (unchanged outside src/ and test/unit/), or null. */
export function fileDestination(path) {
  if (path.startsWith('src/')) return sourceDestination(path);
  if (path.startsWith('test/unit/')) return unitTestDestination(path);
  return path;
}

/** The new form of a path named in text or an import; what no rule takes is left as it is. */
export function pathDestination(path) {
  if (path.startsWith('dist/')) {
    const inner = pathDestination(path.slice('dist/'.length));
    return `dist/${inner}`;
  }
  if (path.startsWith('src/')) return sourceDestination(path) ?? path;
  if (path.startsWith('test/unit/')) {
    const js = path.endsWith('.test.js');
    const moved = unitTestDestination(js ? path.replace(/\.js$/, '.ts') : path);
    if (moved === null) return path;
    return js ? moved.replace(/\.ts$/, '.js') : moved;
  }
  return path;
}
