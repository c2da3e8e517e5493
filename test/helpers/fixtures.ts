import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import n3 from 'n3';
import type { DatasetCore, Quad, Term } from '@rdfjs/types';
import { projectRoot } from '../../src/core/project-paths.js';
import { SmallDataset } from '../../src/core/validation/small-dataset.js';

export const fixturesDir = join(projectRoot, 'test', 'fixtures');

export interface Fixture {
  name: string;
  path: string;
  json: unknown;
}

/** The payload corpus: test/fixtures/valid/*.json or test/fixtures/invalid/*.json, by name. */
export function readFixtures(kind: 'valid' | 'invalid'): Fixture[] {
  const dir = join(fixturesDir, kind);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((name) => {
      const path = join(dir, name);
      return { name, path, json: JSON.parse(readFileSync(path, 'utf8')) as unknown };
    });
}

export function readFixture(kind: 'valid' | 'invalid', name: string): unknown {
  return JSON.parse(readFileSync(join(fixturesDir, kind, name), 'utf8')) as unknown;
}

/* ---- The W3C SHACL core test suite, stored in test/conformance/data-shapes/core ---- */

const CORE = join(projectRoot, 'test', 'conformance', 'data-shapes', 'core');
const MF = 'http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#';
const SHT = 'http://www.w3.org/ns/shacl-test#';
const SH = 'http://www.w3.org/ns/shacl#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';

export interface ShaclSuiteCase {
  /** The test's IRI relative to tests/core/, e.g. `node/in-001`. */
  id: string;
  label: string;
  data: Quad[];
  shapes: Quad[];
  /** The manifest graph and the node of the expected sh:ValidationReport in it. */
  expected: { dataset: DatasetCore; report: Term };
}

function objects(dataset: DatasetCore, subject: Term, predicate: string): Term[] {
  return [...dataset.match(subject as Quad['subject'], n3.DataFactory.namedNode(predicate), null)].map((q) => q.object);
}

function one(dataset: DatasetCore, subject: Term, predicate: string): Term | undefined {
  return objects(dataset, subject, predicate)[0];
}

function list(dataset: DatasetCore, head: Term): Term[] {
  const items: Term[] = [];
  for (let node = head; node.value !== `${RDF}nil`; node = one(dataset, node, `${RDF}rest`)!) {
    items.push(one(dataset, node, `${RDF}first`)!);
  }
  return items;
}

/** Every sht:Validate case of the core suite, following mf:include from the top manifest. Each file
 * is parsed once, so blank nodes a case's expected report shares with its shapes graph (inline
 * property shapes as sh:sourceShape) are the same terms in both. */
export function readShaclCoreSuite(): ShaclSuiteCase[] {
  const parsed = new Map<string, Quad[]>();
  const readGraph = (iri: string): Quad[] => {
    const path = fileURLToPath(iri);
    let quads = parsed.get(path);
    if (!quads) {
      const parser = new n3.Parser({ baseIRI: iri, blankNodePrefix: `f${parsed.size}_` });
      quads = parser.parse(readFileSync(path, 'utf8'));
      parsed.set(path, quads);
    }
    return quads;
  };
  const root = `${pathToFileURL(CORE).href}/`;
  const cases: ShaclSuiteCase[] = [];
  const walk = (manifestIri: string): void => {
    const manifest = new SmallDataset(readGraph(manifestIri));
    for (const q of manifest.match(null, n3.DataFactory.namedNode(`${MF}include`), null)) walk(q.object.value);
    for (const q of manifest.match(null, n3.DataFactory.namedNode(`${MF}entries`), null)) {
      for (const entry of list(manifest, q.object)) {
        const action = one(manifest, entry, `${MF}action`)!;
        cases.push({
          id: entry.value.replace(root, ''),
          label: one(manifest, entry, `${RDFS}label`)?.value ?? entry.value,
          data: readGraph(one(manifest, action, `${SHT}dataGraph`)!.value),
          shapes: readGraph(one(manifest, action, `${SHT}shapesGraph`)!.value),
          expected: { dataset: manifest, report: one(manifest, entry, `${MF}result`)! },
        });
      }
    }
  };
  walk(`${root}manifest.ttl`);
  return cases;
}

export function expectedConforms(testCase: ShaclSuiteCase): boolean {
  return one(testCase.expected.dataset, testCase.expected.report, `${SH}conforms`)?.value === 'true';
}

/** A path (possibly a blank-node structure) as a canonical string. */
function pathKey(dataset: DatasetCore, path: Term | undefined): string {
  if (!path) return '-';
  if (path.termType === 'NamedNode') return `<${path.value}>`;
  if (one(dataset, path, `${RDF}first`))
    return `(${list(dataset, path)
      .map((p) => pathKey(dataset, p))
      .join(' / ')})`;
  for (const kind of ['alternativePath', 'inversePath', 'zeroOrMorePath', 'oneOrMorePath', 'zeroOrOnePath']) {
    const inner = one(dataset, path, `${SH}${kind}`);
    if (!inner) continue;
    if (kind === 'alternativePath')
      return `alt(${list(dataset, inner)
        .map((p) => pathKey(dataset, p))
        .join(' | ')})`;
    return `${kind}(${pathKey(dataset, inner)})`;
  }
  return `?${path.value}`;
}

function termKey(term: Term | undefined): string {
  if (!term) return '-';
  if (term.termType === 'Literal') return `"${term.value}"^^${term.datatype.value}@${term.language}`;
  return `${term.termType}:${term.value}`;
}

/** The results of a report graph as comparable strings (focus node, path, value, severity, source
 * shape, constraint component; messages are free text and left out), sorted. */
export function reportResultKeys(dataset: DatasetCore, report: Term): string[] {
  return objects(dataset, report, `${SH}result`)
    .map((r) =>
      [
        termKey(one(dataset, r, `${SH}focusNode`)),
        pathKey(dataset, one(dataset, r, `${SH}resultPath`)),
        termKey(one(dataset, r, `${SH}value`)),
        termKey(one(dataset, r, `${SH}resultSeverity`)),
        termKey(one(dataset, r, `${SH}sourceShape`)),
        termKey(one(dataset, r, `${SH}sourceConstraintComponent`)),
      ].join('  '),
    )
    .sort();
}
