// The text side of the move: imports recomputed from where each file and its target go, and the
// paths that docs, comments, scripts and path segments name. Pure: text in, text out.
import { dirname, join, posix, relative } from 'node:path';
import ts from 'typescript';
import { OLD_TOP_FOLDERS, pathDestination } from './paths.mjs';

const toPosix = (path) => path.split('\\').join('/');

/**
 * Relative imports of a TypeScript file, recomputed: each specifier is resolved against the file's
 * old folder, its target taken to the target's new place, and written relative to the file's new
 * folder. A file already moved resolves to paths already moved, which map to themselves: idempotent.
 */
export function rewriteImports(text, oldPath, newPath) {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  let out = text;
  for (const { fileName, pos } of [...importedFiles].sort((a, b) => b.pos - a.pos)) {
    if (!fileName.startsWith('./') && !fileName.startsWith('../')) continue;
    // The compiler's position is the opening quote's; the name itself follows it.
    const start = text.indexOf(fileName, pos);
    const end = start + fileName.length;
    const target = toPosix(posix.normalize(join(dirname(oldPath), fileName)));
    let spec = toPosix(relative(dirname(newPath), pathDestination(target)));
    if (!spec.startsWith('.')) spec = `./${spec}`;
    if (fileName.endsWith('/') && !spec.endsWith('/')) spec += '/';
    if (spec !== fileName) out = out.slice(0, start) + spec + out.slice(end);
  }
  return out;
}

/** Trailing punctuation of prose ("see src/x.ts.") is no part of the path. */
function mapToken(token) {
  const [, path, tail] = token.match(/^(.*?)([.]*)$/);
  return pathDestination(path) + tail;
}

/**
 * Paths named in any text: `src/…` and `test/unit/…` (also after dist/ or ../), paths inside src/
 * that name an existing source file (`store/recovery/snapshot.ts`, a thread's `views/export-thread.js`),
 * and path segments ('dist', 'src', 'cli', …) as scripts and tests join them.
 */
export function rewritePaths(text, oldFiles) {
  let out = text.replace(/(?<![\w.-])(?:src|test\/unit)\/[\w./-]*[\w/-]/g, mapToken);
  out = out.replace(/(?<![\w./-])([a-z][\w-]*)\/[\w./-]*\.(?:ts|js)(?![\w/-])/g, (token, first) => {
    if (!OLD_TOP_FOLDERS.has(first)) return token;
    const source = `src/${token}`;
    if (!oldFiles.has(source.replace(/\.js$/, '.ts')) && !oldFiles.has(source)) return token;
    return pathDestination(source).slice('src/'.length);
  });
  out = out.replace(/'src'((?:,\s*'[\w.-]+')+)/g, (whole, rest) => {
    const segments = [...rest.matchAll(/'([\w.-]+)'/g)].map((m) => m[1]);
    const isFile = /\.\w+$/.test(segments.at(-1));
    const path = `src/${segments.join('/')}${isFile ? '' : '/'}`;
    const moved = pathDestination(path).replace(/\/$/, '');
    if (moved === path.replace(/\/$/, '')) return whole;
    return moved
      .split('/')
      .map((segment) => `'${segment}'`)
      .join(', ');
  });
  return out;
}

/** GitHub's anchor for a heading, as test/unit/docs/doc-paths.test.ts computes it. */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*]/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Old anchor → new one, for each heading of a markdown page whose text the rewrite changed. */
export function movedAnchors(before, after) {
  const moved = new Map();
  const was = before.split('\n');
  const is = after.split('\n');
  for (let i = 0; i < was.length; i++) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/;
    const [a, b] = [heading.exec(was[i]), heading.exec(is[i] ?? '')];
    if (a && b && a[1] !== b[1]) moved.set(slug(a[1]), slug(b[1]));
  }
  return moved;
}

/** Links to anchors that moved, in any page: `#old)` → `#new)`. */
export function rewriteAnchors(text, moved) {
  return text.replace(/#([\p{L}\p{N}_-]+)\)/gu, (whole, anchor) => (moved.has(anchor) ? `#${moved.get(anchor)})` : whole));
}
