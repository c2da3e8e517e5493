/**
 * The W3C SHACL core test suite (data-shapes/tests/core, stored in test/conformance/data-shapes),
 * run offline against shacl-engine as this node configures it (src/validation/shacl.ts: n3 terms,
 * the node's small dataset, its sh:in). A test passes when the engine's conformance verdict and its
 * results match the expected report: focus node, result path, value, severity, source shape and
 * constraint component of every result (messages are free text and not compared).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import n3 from 'n3';
import type { DatasetCore, Quad, Term } from '@rdfjs/types';
import { projectRoot } from '../../src/project-paths.js';
import { createShaclEngine } from '../../src/validation/shacl.js';
import { SmallDataset } from '../../src/validation/small-dataset.js';

const SUITE = join(projectRoot, 'test', 'conformance', 'data-shapes', 'core', 'manifest.ttl');

const MF = 'http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#';
const SHT = 'http://www.w3.org/ns/shacl-test#';
const SH = 'http://www.w3.org/ns/shacl#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';

/** Cases not run, each with the reason. Keyed by the test's IRI relative to tests/core/. */
const SKIPPED: Record<string, string> = {};

const parsed = new Map<string, Quad[]>();
let fileCount = 0;

/** Each file is parsed once, so blank nodes a test's expected report shares with its shapes graph
 * (inline property shapes as sh:sourceShape) are the same terms in both. */
function readGraph(iri: string): Quad[] {
  const path = fileURLToPath(iri);
  let quads = parsed.get(path);
  if (!quads) {
    const parser = new n3.Parser({ baseIRI: iri, blankNodePrefix: `f${fileCount++}_` });
    quads = parser.parse(readFileSync(path, 'utf8')) as Quad[];
    parsed.set(path, quads);
  }
  return quads;
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

interface SuiteCase {
  id: string;
  label: string;
  data: Quad[];
  shapes: Quad[];
  expected: { dataset: DatasetCore; report: Term };
}

function loadCases(manifestIri: string, out: SuiteCase[] = []): SuiteCase[] {
  const manifest = new SmallDataset(readGraph(manifestIri));
  const base = manifestIri.replace(/[^/]*$/, '');
  const root = pathToFileURL(join(projectRoot, 'test', 'conformance', 'data-shapes', 'core')).href + '/';
  for (const q of manifest.match(null, n3.DataFactory.namedNode(`${MF}include`), null)) loadCases(q.object.value, out);
  for (const q of manifest.match(null, n3.DataFactory.namedNode(`${MF}entries`), null)) {
    for (const entry of list(manifest, q.object)) {
      const action = one(manifest, entry, `${MF}action`)!;
      out.push({
        id: entry.value.startsWith(root) ? entry.value.slice(root.length) : entry.value.slice(base.length),
        label: one(manifest, entry, `${RDFS}label`)?.value ?? entry.value,
        data: readGraph(one(manifest, action, `${SHT}dataGraph`)!.value),
        shapes: readGraph(one(manifest, action, `${SHT}shapesGraph`)!.value),
        expected: { dataset: manifest, report: one(manifest, entry, `${MF}result`)! },
      });
    }
  }
  return out;
}

/** A path (possibly a blank-node structure) as a canonical string. */
function pathKey(dataset: DatasetCore, path: Term | undefined): string {
  if (!path) return '-';
  if (path.termType === 'NamedNode') return `<${path.value}>`;
  if (one(dataset, path, `${RDF}first`)) return `(${list(dataset, path).map((p) => pathKey(dataset, p)).join(' / ')})`;
  for (const kind of ['alternativePath', 'inversePath', 'zeroOrMorePath', 'oneOrMorePath', 'zeroOrOnePath']) {
    const inner = one(dataset, path, `${SH}${kind}`);
    if (!inner) continue;
    if (kind === 'alternativePath') return `alt(${list(dataset, inner).map((p) => pathKey(dataset, p)).join(' | ')})`;
    return `${kind}(${pathKey(dataset, inner)})`;
  }
  return `?${path.value}`;
}

function termKey(term: Term | undefined): string {
  if (!term) return '-';
  if (term.termType === 'Literal') return `"${term.value}"^^${term.datatype.value}@${term.language}`;
  return `${term.termType}:${term.value}`;
}

/** The results of a report graph as comparable strings, sorted. */
function resultKeys(dataset: DatasetCore, report: Term): string[] {
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

describe('W3C SHACL core test suite (shacl-engine as configured by the node)', function () {
  const cases = loadCases(pathToFileURL(SUITE).href);

  it('finds the suite', () => {
    expect(cases.length).to.be.greaterThan(90);
  });

  for (const testCase of cases) {
    const skip = SKIPPED[testCase.id];
    const title = `${testCase.id}: ${testCase.label}`;
    if (skip) {
      it.skip(`${title} (skipped: ${skip})`, () => undefined);
      continue;
    }
    it(title, async () => {
      const engine = createShaclEngine(new SmallDataset(testCase.shapes));
      const report = await engine.validate({ dataset: new SmallDataset(testCase.data) });
      const { dataset, report: expectedReport } = testCase.expected;
      const expectedConforms = one(dataset, expectedReport, `${SH}conforms`)?.value === 'true';
      expect(report.conforms, 'conforms').to.equal(expectedConforms);
      expect(resultKeys(report.dataset, report.term)).to.deep.equal(resultKeys(dataset, expectedReport));
    });
  }
});
