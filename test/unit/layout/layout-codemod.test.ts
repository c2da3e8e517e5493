import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../../src/core/project-paths.js';

/**
 * The layout move (scripts/layout/apply.mjs) runs last, on whatever src/ then holds. These hold its
 * table to today's tree, so a file no rule takes or a core module that imports an adapter fails here,
 * when it is written, rather than at the move. On the moved tree the same checks hold trivially.
 */

interface Paths {
  fileDestination(path: string): string | null;
  pathDestination(path: string): string;
}
interface Rewrite {
  rewriteImports(text: string, oldPath: string, newPath: string): string;
  rewritePaths(text: string, oldFiles: Set<string>): string;
}
interface Layers {
  layerBreaches(files: string[], moves: Map<string, string>, readText: (file: string) => string): string[];
}

const load = async <T>(name: string): Promise<T> => (await import(pathToFileURL(join(projectRoot, 'scripts', 'layout', name)).href)) as T;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src', 'test/unit'], {
  cwd: projectRoot,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);

describe('the layout move: its table and rewrites', () => {
  let paths: Paths;
  let rewrite: Rewrite;
  let layers: Layers;
  before(async () => {
    paths = await load<Paths>('paths.mjs');
    rewrite = await load<Rewrite>('rewrite.mjs');
    layers = await load<Layers>('layers.mjs');
  });

  it('has a place for every file of src/ and test/unit/, and a place is its own place (the move is idempotent)', () => {
    const unmapped = files.filter((file) => paths.fileDestination(file) === null);
    expect(unmapped, 'files no rule takes').to.deep.equal([]);
    const unstable = files.filter((file) => {
      const to = paths.fileDestination(file)!;
      return paths.fileDestination(to) !== to;
    });
    expect(unstable).to.deep.equal([]);
    const targets = files.map((file) => paths.fileDestination(file));
    expect(new Set(targets).size, 'two files on one place').to.equal(targets.length);
  });

  it('takes a file added later by its folder, and refuses one under a folder no rule names', () => {
    expect(paths.fileDestination('src/store/oxigraph/new-part.ts')).to.equal('src/adapters/oxigraph/new-part.ts');
    expect(paths.fileDestination('src/catalog/new-record.ts')).to.equal('src/core/catalog/new-record.ts');
    expect(paths.fileDestination('test/unit/store/recovery/new.test.ts')).to.equal('test/unit/adapters/oxigraph/recovery/new.test.ts');
    expect(paths.fileDestination('src/somewhere/new.ts')).to.equal(null);
    expect(paths.fileDestination('src/top-level-file.ts')).to.equal(null);
  });

  it('moves a file within the new layout by its own row, and leaves its neighbours where they are', () => {
    expect(paths.fileDestination('src/core/changes/change-index.ts')).to.equal('src/core/ports/memory-change-source.ts');
    expect(paths.pathDestination('dist/src/core/changes/change-index.js')).to.equal('dist/src/core/ports/memory-change-source.js');
    expect(paths.fileDestination('src/core/changes/change-log.ts')).to.equal('src/core/changes/change-log.ts');
    expect(paths.fileDestination('src/core/ports/memory-change-source.ts')).to.equal('src/core/ports/memory-change-source.ts');
  });

  it('recomputes a relative import from where both files go, and leaves a moved one as it is', () => {
    const text = "import { x } from '../store/quad-store.js';\nimport { y } from './records.js';\nimport z from 'n3';\n";
    const moved = rewrite.rewriteImports(text, 'src/catalog/a.ts', 'src/core/catalog/a.ts');
    expect(moved).to.equal("import { x } from '../ports/quad-store.js';\nimport { y } from './records.js';\nimport z from 'n3';\n");
    expect(rewrite.rewriteImports(moved, 'src/core/catalog/a.ts', 'src/core/catalog/a.ts')).to.equal(moved);
  });

  it('rewrites the paths text names: whole paths, paths inside src/, and joined path segments', () => {
    const old = new Set(['src/store/recovery/snapshot-run.ts', 'src/cli/dataspace.ts']);
    const text = [
      'See [the feed](../src/store/change-feed.ts) and `store/recovery/snapshot-run.ts`.',
      "const CLI = resolve(projectRoot, 'dist', 'src', 'cli', 'dataspace.js');",
      '"dataspace": "dist/src/cli/dataspace.js", sparql `views/consignment.rq`',
    ].join('\n');
    const out = rewrite.rewritePaths(text, old);
    expect(out).to.equal(
      [
        'See [the feed](../src/core/store/change-feed.ts) and `adapters/oxigraph/recovery/snapshot-run.ts`.',
        "const CLI = resolve(projectRoot, 'dist', 'src', 'adapters', 'cli', 'dataspace.js');",
        '"dataspace": "dist/src/adapters/cli/dataspace.js", sparql `views/consignment.rq`',
      ].join('\n'),
    );
    expect(rewrite.rewritePaths(out, old)).to.equal(out);
  });

  it('finds no import from a module bound for core/ into adapters/ or the composition root', () => {
    const moves = new Map(files.map((file) => [file, paths.fileDestination(file) ?? file]));
    const breaches = layers.layerBreaches(
      files.filter((file) => file.startsWith('src/')),
      moves,
      (file) => readFileSync(join(projectRoot, file), 'utf8'),
    );
    expect(breaches).to.deep.equal([]);
  });
});
