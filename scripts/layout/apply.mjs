#!/usr/bin/env node
// Moves src/ into the ports-and-adapters layout of mapping.mjs, and the unit tests that mirror it,
// then rewrites every relative import and every path that text names. Re-runnable: files already in
// place stay, a file added later under an old folder follows its folder's rule, and a file of src/
// that no rule takes stops the run before anything changes, naming it.
//
//   node scripts/layout/apply.mjs            move and rewrite (git mv, so history follows the files)
//   node scripts/layout/apply.mjs --dry-run  print the moves and the core → adapter imports, change nothing
//
// Afterwards: node scripts/build.mjs && npm run lint (dist/ is removed, as it holds the old paths).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileDestination } from './paths.mjs';
import { movedAnchors, rewriteAnchors, rewriteImports, rewritePaths } from './rewrite.mjs';
import { layerBreaches } from './layers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dryRun = process.argv.includes('--dry-run');
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });

const tracked = new Set(git('ls-files', '-z').split('\0').filter(Boolean));
const files = git('ls-files', '-z', '--cached', '--others', '--exclude-standard')
  .split('\0')
  .filter((file) => file && existsSync(join(root, file)));

// Text that names paths; generated data, vendored contexts and the lock file are left as they are.
const TEXT = /\.(?:ts|mts|mjs|cjs|js|json|md|ya?ml|sh|rq|rq-fragment|ttl|sql|ini|conf|cfg|txt|toml)$|(?:^|\/)(?:Dockerfile|\.[\w-]+rc)$/;
// Their paths are left as they are (the codemod and its test name old paths on purpose); imports still follow.
const LEFT_AS_IS = [
  /^package-lock\.json$/,
  /^test\/fixtures\//,
  /^contexts\//,
  /^public\/vendor\//,
  /^scripts\/layout\//,
  /^test\/unit\/layout\//,
];

const moves = new Map();
const unmapped = [];
for (const file of files) {
  const to = fileDestination(file);
  if (to === null) unmapped.push(file);
  else if (to !== file) moves.set(file, to);
}
if (unmapped.length > 0) {
  process.stderr.write(`No rule of scripts/layout/mapping.mjs takes these files; add rows and run again:\n`);
  for (const file of unmapped) process.stderr.write(`  ${file}\n`);
  process.exit(1);
}
const clashes = [...moves].filter(([, to]) => existsSync(join(root, to)));
if (clashes.length > 0) {
  process.stderr.write(`These files would land on files that exist:\n`);
  for (const [from, to] of clashes) process.stderr.write(`  ${from} → ${to}\n`);
  process.exit(1);
}

const oldFiles = new Set(files);
const rewritten = new Map();
for (const file of files) {
  if (!TEXT.test(file)) continue;
  const asIs = LEFT_AS_IS.some((pattern) => pattern.test(file));
  const text = readFileSync(join(root, file), 'utf8');
  const to = moves.get(file) ?? file;
  let out = /\.(?:ts|mts)$/.test(file) && !file.endsWith('.d.ts') ? rewriteImports(text, file, to) : text;
  if (!asIs) out = rewritePaths(out, oldFiles);
  if (file === 'eslint.config.js') out = out.replace(/\n *\/\/ layout: before the move[\s\S]*?\/\/ layout: end\n/g, '\n');
  if (out !== text) rewritten.set(file, out);
}

// docs/architecture.md is the map: the floors of the new layout go in before its first section.
const MAP = 'docs/architecture.md';
const floors = readFileSync(join(root, 'scripts', 'layout', 'architecture-floors.md'), 'utf8');
const map = rewritten.get(MAP) ?? readFileSync(join(root, MAP), 'utf8');
if (!map.includes(floors.split('\n')[0])) {
  const at = map.indexOf('\n## ');
  rewritten.set(MAP, `${map.slice(0, at + 1)}\n${floors.trim()}\n${map.slice(at)}`);
}

// Headings that name paths have new anchors: links to them follow (docs/security.md#login-…).
const anchors = new Map();
for (const [file, text] of rewritten) {
  if (file.endsWith('.md')) for (const [from, to] of movedAnchors(readFileSync(join(root, file), 'utf8'), text)) anchors.set(from, to);
}
if (anchors.size > 0) {
  for (const file of files.filter((name) => name.endsWith('.md') && !LEFT_AS_IS.some((pattern) => pattern.test(name)))) {
    const text = rewritten.get(file) ?? readFileSync(join(root, file), 'utf8');
    const out = rewriteAnchors(text, anchors);
    if (out !== text) rewritten.set(file, out);
  }
}

const breaches = layerBreaches(files, moves, (file) => readFileSync(join(root, file), 'utf8'));
if (dryRun) {
  for (const [from, to] of moves) process.stdout.write(`${from} → ${to}\n`);
  process.stdout.write(`\n${moves.size} files move, ${rewritten.size} files change text.\n`);
  process.stdout.write(`\nImports from core/ into adapters/ or the composition root (${breaches.length}):\n`);
  for (const breach of breaches) process.stdout.write(`  ${breach}\n`);
  process.exit(0);
}

for (const [from, to] of moves) {
  mkdirSync(dirname(join(root, to)), { recursive: true });
  if (tracked.has(from)) git('mv', from, to);
  else renameSync(join(root, from), join(root, to));
}
for (const [file, text] of rewritten) writeFileSync(join(root, moves.get(file) ?? file), text);

// Folders the move emptied, and the build of the old paths.
function pruneEmpty(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) pruneEmpty(join(dir, entry.name));
  if (readdirSync(dir).length === 0) rmdirSync(dir);
}
pruneEmpty(join(root, 'src'));
pruneEmpty(join(root, 'test', 'unit'));
if (moves.size > 0) rmSync(join(root, 'dist'), { recursive: true, force: true });
// Longer import paths can pass the line width: the formatter lays them out as the house does.
const written = [...rewritten.keys()].map((file) => moves.get(file) ?? file);
if (written.length > 0) {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--write', '--ignore-unknown', '--log-level', 'warn', ...written],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
const long = written.filter((file) => /\.ts$/.test(file) && readFileSync(join(root, file), 'utf8').split('\n').length > 301);
process.stdout.write(`${moves.size} files moved, ${rewritten.size} files rewritten.\n`);
if (long.length > 0) process.stdout.write(`Over 300 lines after the rewrite (split them): ${long.join(', ')}\n`);
if (breaches.length > 0) {
  process.stdout.write(`Imports from core/ into adapters/ or the composition root (the lint rule refuses them):\n`);
  for (const breach of breaches) process.stdout.write(`  ${breach}\n`);
}
