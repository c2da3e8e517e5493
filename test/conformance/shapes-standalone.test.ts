/**
 * Shapes that stand alone (issue 16): a standards tester who runs their own SHACL engine over the
 * files in shapes/ and the data graph /validate returns (Accept: application/n-quads) gets the node's
 * verdict on every payload of the corpus, and every sh:sourceShape the node reports is a shape named
 * in those files. The independent engine is rdf-validate-shacl, fed the shape files as they are on
 * disk (no loader, no naming, no code-selected targets).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import n3 from 'n3';
import SHACLValidator from 'rdf-validate-shacl';
import { shapesDir } from '../../src/core/project-paths.js';
import { readShapeFiles } from '../../src/core/validation/load-shapes.js';
import { DSH } from '../../src/core/validation/readable.js';
import { fixturesDir, readFixtures } from '../helpers/fixtures.js';
import { TestNode } from '../helpers/test-node.js';

const VALIDATE = '/supply-chain/data-space/validate';
const SH = 'http://www.w3.org/ns/shacl#';

/**
 * The rules the node checks in code because they are about the payload's JSON, not its RDF: one tree
 * under one root (dsh:PayloadStructureShape, deactivated in shapes/activity.ttl, says so). SHACL core
 * cannot count the roots of a graph. For these the independent engine must find nothing else wrong,
 * and the node must refuse them for that rule alone.
 */
const STRUCTURE_ONLY = new Set(['payload-included-object-outside-the-tree.json', 'payload-two-top-level-objects.json']);

interface Case {
  name: string;
  json: unknown;
}

function corpus(): Case[] {
  const pilots = readdirSync(join(fixturesDir, 'pilots'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: `pilots/${f}`, json: (JSON.parse(readFileSync(join(fixturesDir, 'pilots', f), 'utf8')) as { object: unknown }).object }));
  return [
    ...readFixtures('valid').map((f) => ({ name: `valid/${f.name}`, json: f.json })),
    ...readFixtures('invalid').map((f) => ({ name: `invalid/${f.name}`, json: f.json })),
    ...pilots,
  ];
}

describe('Shapes that stand alone: an independent SHACL engine over shapes/ gives the node\'s verdicts', function () {
  this.timeout(60000);
  let node: TestNode;
  let engine: SHACLValidator;
  let named: Set<string>;

  before(async () => {
    node = await TestNode.start();
    const shapes = readShapeFiles(shapesDir);
    engine = new SHACLValidator(new n3.Store(shapes));
    named = new Set(shapes.filter((q) => q.subject.termType === 'NamedNode').map((q) => q.subject.value));
  });
  after(async () => {
    await node.stop();
  });

  const cases = corpus();

  it('covers the whole corpus', () => {
    expect(cases.filter((c) => c.name.startsWith('invalid/')).length).to.be.at.least(40);
    expect(cases.filter((c) => c.name.startsWith('valid/')).length).to.be.at.least(10);
    expect(cases.filter((c) => c.name.startsWith('pilots/')).length).to.be.at.least(5);
  });

  for (const testCase of cases) {
    it(testCase.name, async () => {
      const token = await node.login('forwarder');
      const data = await node.request('POST', VALIDATE, { body: testCase.json, token, headers: { accept: 'application/n-quads' } });
      expect(data.status).to.equal(200);
      const verdict = await node.request('POST', VALIDATE, { body: testCase.json, token });
      expect(verdict.status).to.equal(200);
      const nodeResults = verdict.body.results as { severity: string; sourceShape: string }[];
      if (!/^application\/n-quads/.test(data.headers.get('content-type') ?? '')) {
        // Refused while turning JSON into RDF (a term the contexts do not define, a number where the
        // interface wants a string): there is no data graph, so no SHACL verdict to compare, and the
        // refusal cites no shape.
        expect(verdict.body.conforms).to.equal(false);
        expect(nodeResults.filter((r) => r.sourceShape.startsWith('dsh:'))).to.deep.equal([]);
        expect(JSON.parse(data.text)).to.deep.equal(verdict.body);
        return;
      }

      // Every shape the node cites is in the files (the JSON names them dsh:<local>).
      for (const r of nodeResults) {
        expect(r.sourceShape.startsWith('dsh:'), r.sourceShape).to.equal(true);
        expect(named.has(`${DSH}${r.sourceShape.slice(4)}`), `${r.sourceShape} is not named in shapes/`).to.equal(true);
      }

      const report = await engine.validate(new n3.Store(new n3.Parser({ format: 'N-Quads' }).parse(data.text)));
      // sh:conforms is false for Warnings too; the node blocks on Violations only.
      const violations = report.results.filter((r) => r.severity?.value === `${SH}Violation`);
      for (const r of report.results) expect(r.sourceShape?.termType, 'a report of the independent engine cites a blank shape').to.equal('NamedNode');
      const summary = JSON.stringify({ node: nodeResults, independent: violations.map((r) => [r.sourceShape?.value, r.path?.value, r.message.map((m) => m.value)]) }, null, 1);

      if (STRUCTURE_ONLY.has(testCase.name.replace(/^invalid\//, ''))) {
        expect(verdict.body.conforms, summary).to.equal(false);
        expect(nodeResults.filter((r) => r.severity === 'Violation').every((r) => r.sourceShape === 'dsh:PayloadStructureShape'), summary).to.equal(true);
        expect(violations, summary).to.deep.equal([]);
        return;
      }
      expect(violations.length === 0, summary).to.equal(verdict.body.conforms);
    });
  }
});
