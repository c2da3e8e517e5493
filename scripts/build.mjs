#!/usr/bin/env node
// Compiles the TypeScript into dist/. With --if-stale it first compares modification times and does
// nothing when dist/ is newer than every input, so `npm start` on a built tree costs a few stat calls
// instead of a type check (55 s under load here). Runs before anything is compiled, hence plain JS.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.build-stamp');
const SOURCES = ['src', 'test', 'bench', 'scripts'];
const FILES = ['tsconfig.json', 'package.json'];
// Entry points installed as commands (package.json "bin") must be executable.
const EXECUTABLES = ['dist/src/cli-main.js', 'dist/src/adapters/cli/validate.js', 'dist/src/adapters/cli/query.js'];
// What `npm start` runs: dist/src/main.js and every module it imports in one file (esbuild). A start
// spent 0.55 s loading ~1,000 modules one by one, 0.26 s loading them bundled; at 10k consignments a
// restart answers in ~1.0 s instead of ~1.25 (docs/operations.md). Tests, tools and the worker
// threads run the modules of dist/src as compiled.
const BUNDLE = join(root, 'dist', 'bundle', 'main.js');

function newestInput() {
  let newest = 0;
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of SOURCES) if (existsSync(join(root, dir))) visit(join(root, dir));
  for (const file of FILES) newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  return newest;
}

function stale() {
  if (!existsSync(stamp) || !existsSync(BUNDLE)) return true;
  return newestInput() > statSync(stamp).mtimeMs;
}

if (process.argv.includes('--if-stale') && !stale()) process.exit(0);
const started = Date.now();
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
// Not --incremental: its build-info file trusts that dist/ still holds what it last emitted, which a
// plain `tsc` run on another checkout silently breaks (the next build then emits nothing).
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
for (const file of EXECUTABLES) if (existsSync(join(root, file))) chmodSync(join(root, file), 0o755);
const { build } = await import('esbuild');
await build({
  entryPoints: [join(root, 'dist', 'src', 'main.js')],
  outfile: BUNDLE,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Oxigraph's glue finds its .wasm beside itself, and the node instantiates that glue on its own
  // (src/adapters/oxigraph/wasm/oxigraph-instance.ts): it stays a package. The others' CommonJS gets a require.
  external: ['oxigraph'],
  banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
  // node --enable-source-maps dist/bundle/main.js gives stack traces in the TypeScript sources.
  sourcemap: 'linked',
  logLevel: 'warning',
});
writeFileSync(stamp, `${new Date(started).toISOString()}\n`);
if (!process.argv.includes('--quiet')) process.stderr.write(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
