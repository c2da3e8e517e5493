/**
 * The W3C SHACL core test suite (data-shapes/tests/core, stored in test/conformance/data-shapes),
 * run offline against shacl-engine as this node configures it (src/core/validation/shacl.ts: n3 terms,
 * the node's small dataset, its sh:in). A test passes when the engine's conformance verdict and its
 * results match the expected report: focus node, result path, value, severity, source shape and
 * constraint component of every result (messages are free text and not compared).
 */
import { expect } from 'chai';
import { createShaclEngine } from '../../src/core/validation/shacl.js';
import { SmallDataset } from '../../src/core/validation/small-dataset.js';
import { expectedConforms, readShaclCoreSuite, reportResultKeys } from '../helpers/fixtures.js';

describe('W3C SHACL core test suite (shacl-engine as configured by the node)', function () {
  const cases = readShaclCoreSuite();

  it('finds the suite', () => {
    expect(cases.length).to.be.greaterThan(90);
  });

  for (const testCase of cases) {
    // Every core case runs: shacl-engine as configured here passes all 98.
    it(`${testCase.id}: ${testCase.label}`, async () => {
      const engine = createShaclEngine(new SmallDataset(testCase.shapes));
      const report = await engine.validate({ dataset: new SmallDataset(testCase.data) });
      expect(report.conforms, 'conforms').to.equal(expectedConforms(testCase));
      expect(reportResultKeys(report.dataset, report.term)).to.deep.equal(reportResultKeys(testCase.expected.dataset, testCase.expected.report));
    });
  }
});
