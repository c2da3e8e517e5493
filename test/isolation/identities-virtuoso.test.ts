import { expect } from 'chai';
import { runChildSuite } from '../helpers/child-suite.js';
import { externalSparqlUrl } from '../helpers/external-store.js';
import { Virtuoso, virtuosoMissing } from '../helpers/virtuoso.js';

/**
 * The identity rules involve the store (a Create's globalId checked against the node's resources, the
 * SPARQL endpoint's answers, an external store's skolemised blank nodes in urn:dataspace:), so their
 * isolation cases run again with the node on Virtuoso, as test/http/external-store.test.ts runs the HTTP suite.
 */
const FILES = ['identities', 'owned-nodes', 'answers'].map((name) => `isolation/${name}.test.js`);

describe('isolation: the identity cases with the node on Virtuoso', function () {
  this.timeout(600_000);
  let virtuoso: Virtuoso;

  before(async function () {
    if (externalSparqlUrl()) this.skip(); // reason: inside a run on an external store this file is one of the suite's files, not the driver
    const missing = virtuosoMissing();
    if (missing) {
      console.warn(`    skipped: ${missing}`);
      this.skip(); // reason: no virtuoso-t on this machine (.ci/run installs it, so CI always runs these)
    }
    virtuoso = await Virtuoso.start();
  });
  after(async () => {
    await virtuoso?.stop();
  });

  it('passes identities, owned-nodes and answers with the node on Virtuoso', async () => {
    const { code, output, summary } = await runChildSuite(FILES, { DATASPACE_TEST_SPARQL_URL: virtuoso.sparqlUrl }, 120_000);
    console.log(`      identity cases on Virtuoso: ${summary}`);
    expect(code, output.slice(-20_000)).to.equal(0);
    expect(output).to.match(/\d+ passing/);
  });
});
