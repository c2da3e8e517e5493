import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { projectRoot } from '../../../src/core/project-paths.js';

/**
 * The docs name files and link to pages and sections; when a file moves or a heading changes, the
 * reference goes stale without a sound. This walks every reference page and checks that each link
 * resolves (a file, and a heading for a `#fragment` into a markdown page) and that each repository
 * path named in inline code exists. Dated results under bench/results/ are history: only their links
 * to files are checked, since the files they name may have moved since.
 */

const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage']);

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

const files = walk(projectRoot);
const basenames = new Set(files.map((f) => basename(f)));
const rel = (path: string) => relative(projectRoot, path);

const referencePages = files.filter((f) => {
  const r = rel(f);
  return r.endsWith('.md') && (r.startsWith('docs/') || !r.includes('/') || r === 'bench/README.md');
});
const resultPages = files.filter((f) => rel(f).startsWith('bench/results/') && f.endsWith('.md'));

/** The page's text outside fenced code blocks (commands and examples there name the reader's files). */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*]/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(path: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const match of prose(readFileSync(path, 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Links of a page that do not resolve: a missing file, or a fragment with no such heading. */
function brokenLinks(page: string, withAnchors: boolean): string[] {
  const broken: string[] = [];
  for (const match of prose(readFileSync(page, 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [path, fragment] = target.split('#') as [string, string | undefined];
    const file = path === '' ? page : resolve(dirname(page), decodeURI(path));
    if (!existsSync(file)) {
      broken.push(`${target} (no such file)`);
      continue;
    }
    if (withAnchors && fragment && file.endsWith('.md') && !anchors(file).has(fragment)) broken.push(`${target} (no such heading)`);
  }
  return broken;
}

/** Where a built file came from: dist/src/x.js → src/x.ts; `bench/x.js`, as imports name it, → bench/x.ts. */
function sourceOf(path: string): string {
  return (path.startsWith('dist/') ? path.slice('dist/'.length) : path).replace(/\.js$/, '.ts');
}

const ROOTS = [
  'src/',
  'test/',
  'bench/',
  'sparql/',
  'shapes/',
  'scripts/',
  'deploy/',
  'contexts/',
  'examples/',
  'public/',
  'docs/',
  'dist/',
];
/** Where a path the docs give inside a tree may start. */
const NESTED = ['src', 'sparql', 'bench', 'test', 'shapes', '.'];
const FILE = /^[\w.@-]+\.(?:ts|js|mjs|rq|ttl|md|json|jsonld|sql|ini|yaml|yml|sh|conf|cfg)$/;

/** Repository paths and file names in a page's inline code that name no file here. */
function missingPaths(page: string): string[] {
  const missing: string[] = [];
  for (const match of prose(readFileSync(page, 'utf8')).matchAll(/`([^`\n]+)`/g)) {
    for (const token of match[1]!.split(/[\s,;()=]+/)) {
      const path = token.replace(/^\.\//, '').replace(/[:.]+$/, '');
      if (ROOTS.some((root) => path.startsWith(root))) {
        if (/[<>*{}$…]/.test(path) || (path.endsWith('/') && existsSync(join(projectRoot, path)))) continue;
        // Built output that is no source's (the bundle, the build stamp) is not in the repository.
        if (path.startsWith('dist/') && (path.startsWith('dist/bundle/') || !path.endsWith('.js'))) continue;
        if (existsSync(join(projectRoot, path)) || existsSync(join(projectRoot, sourceOf(path)))) continue;
        missing.push(path);
      } else if (/^[\w.-]+(?:\/[\w.-]+)+$/.test(path) && FILE.test(basename(path))) {
        // A path inside a tree, as the docs write queries (`views/x.rq`) and modules (`policy/x.ts`).
        if (!NESTED.some((root) => existsSync(join(projectRoot, root, sourceOf(path))) || existsSync(join(projectRoot, root, path))))
          missing.push(path);
      } else if (FILE.test(path) && !path.includes('/')) {
        const name = path.replace(/\.js$/, '.ts');
        if (!basenames.has(path) && !basenames.has(name)) missing.push(path);
      }
    }
  }
  return missing;
}

describe('the docs name files and sections that exist', () => {
  it('finds the pages it checks', () => {
    expect(referencePages.map(rel)).to.include.members(['README.md', 'docs/performance.md', 'bench/README.md']);
  });

  it('heading anchors follow GitHub: `### Images alone, between snapshots` → images-alone-between-snapshots', () => {
    expect(slug('Images alone, between snapshots')).to.equal('images-alone-between-snapshots');
    expect(slug('The `dataspace` command')).to.equal('the-dataspace-command');
    expect(slug('Participant console (`/console`)')).to.equal('participant-console-console');
  });

  it('docs/README.md lists every page of docs/', () => {
    const index = readFileSync(join(projectRoot, 'docs', 'README.md'), 'utf8');
    const pages = readdirSync(join(projectRoot, 'docs')).filter((f) => f.endsWith('.md') && f !== 'README.md');
    expect(pages.filter((page) => !index.includes(`](${page})`))).to.deep.equal([]);
  });

  for (const page of referencePages) {
    it(`${rel(page)}: every link resolves, and every path it names exists`, () => {
      expect(brokenLinks(page, true), 'links').to.deep.equal([]);
      expect(missingPaths(page), 'paths in inline code').to.deep.equal([]);
    });
  }

  for (const page of resultPages) {
    it(`${rel(page)}: every link resolves to a file`, () => {
      expect(brokenLinks(page, false)).to.deep.equal([]);
    });
  }
});
