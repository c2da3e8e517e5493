import { expect } from 'chai';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';

/**
 * What `npm ci --omit=dev` installs is what package-lock.json records without `dev: true`. shacl-engine
 * lists two Comunica packages for its SPARQL plugin alone, which the node never loads; package.json's
 * `overrides` replace them, under shacl-engine only, with an empty package (docs/decisions.md,
 * "Production closure"). These checks fail when a dependency brings Comunica back into production, or
 * when the node imports a package it does not declare (one the removed stack used to bring along).
 */
interface LockEntry {
  name?: string;
  version?: string;
  dev?: boolean;
  link?: boolean;
  integrity?: string;
}

const lock = JSON.parse(readFileSync(resolve(projectRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
const manifest = JSON.parse(readFileSync(resolve(projectRoot, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  overrides?: Record<string, Record<string, string>>;
};

/** The production packages: path in node_modules → the package installed there (an alias's real name). */
function production(): { path: string; name: string; entry: LockEntry }[] {
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && path.includes('node_modules/') && !entry.dev)
    .map(([path, entry]) => ({ path, name: entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), entry }));
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** The package a bare import specifier names (`@scope/name/deep` → `@scope/name`). */
const packageOf = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('production closure: only what the node runs (issue 49)', () => {
  it('installs no @comunica package in production', () => {
    const packages = production();
    expect(packages.length, 'production packages in the lock').to.be.greaterThan(100);
    expect(packages.filter((p) => p.name.startsWith('@comunica/')).map((p) => `${p.path} (${p.name})`)).to.deep.equal([]);
  });

  it("gives shacl-engine's Comunica dependencies the empty package, pinned by its integrity", () => {
    const engine = JSON.parse(readFileSync(resolve(projectRoot, 'node_modules', 'shacl-engine', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const comunica = Object.keys(engine.dependencies).filter((name) => name.startsWith('@comunica/'));
    expect(comunica, "shacl-engine's Comunica dependencies").to.not.be.empty;
    for (const name of comunica) {
      expect(manifest.overrides?.['shacl-engine']?.[name], `overrides.shacl-engine.${name}`).to.equal('npm:empty-npm-package@1.0.0');
      const entry = Object.entries(lock.packages).find(
        ([path]) => path.endsWith(`node_modules/${name}`) && path.includes('shacl-engine'),
      )?.[1];
      expect(entry, `the lock's entry for ${name} under shacl-engine`).to.include({
        name: 'empty-npm-package',
        integrity: 'sha512-q4Mq/+XO7UNDdMiPpR/LIBIW1Zl4V0Z6UT9aKGqIAnBCtCb3lvZJM1KbDbdzdC8fKflwflModfjR29Nt0EpcwA==',
      });
    }
  });

  it("imports only shacl-engine's core, never its SPARQL plugin", () => {
    const importers = sources(resolve(projectRoot, 'src')).filter((path) =>
      /['"]shacl-engine\/(?:sparql|lib\/sparql)/.test(readFileSync(path, 'utf8')),
    );
    expect(importers).to.deep.equal([]);
  });

  it('imports from src/ only packages package.json declares for production (the CLI loads dev-only Comunica on demand)', () => {
    const declared = new Set(Object.keys(manifest.dependencies));
    const undeclared = new Set<string>();
    for (const path of sources(resolve(projectRoot, 'src'))) {
      const text = readFileSync(path, 'utf8');
      for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'([^'.][^']*)'/gm)) {
        const name = packageOf(m[1]!);
        if (name.startsWith('node:') || declared.has(name)) continue;
        undeclared.add(`${name} (${path.slice(projectRoot.length + 1)})`);
      }
    }
    // query.ts asks for Comunica only when a federated query runs, and names the install command if it is missing.
    expect([...undeclared]).to.deep.equal(['@comunica/query-sparql (src/adapters/cli/query.ts)']);
  });
});
