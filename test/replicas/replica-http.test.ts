import { expect } from 'chai';
import { runChildSuite } from '../helpers/child-suite.js';
import { Postgres, postgresMissing } from '../helpers/postgres.js';
import { Virtuoso, virtuosoMissing } from '../helpers/virtuoso.js';
import { externalSparqlUrl } from '../helpers/external-store.js';

/**
 * The HTTP tests of what a replica keeps in PostgreSQL instead of its data dir and memory (documents'
 * files, the JWT secret, failed-login counters, tokens and their revocation, the consignment catalog
 * that writes decide on and lists walk, the change feed's index, the receivers' ledger of signals,
 * and the activity ids retries are answered by, looked up in the store), run with every node a
 * replica set's writer on PostgreSQL and Virtuoso (test/helpers/external-store.ts replicaOwnState).
 */
const FILES = [
  'http/documents-files.test.js',
  'http/login-and-tokens.test.js',
  'http/login-behind-proxy.test.js',
  'http/accounts-revocation.test.js',
  'http/machine-clients.test.js',
  'http/inbox-and-reads.test.js',
  'http/list-filters.test.js',
  'http/policy-lists.test.js',
  'http/policy-routes.test.js',
  'http/change-feed.test.js',
  'http/signals-received.test.js',
  'replicas/signals-ledger-catch-up.child.js',
  'http/signal-delivery.test.js',
  'http/signal-triggers.test.js',
  'http/signal-endpoints.test.js',
  'http/openapi-answers.test.js',
  'http/spec-dates-and-nulls.test.js',
  'http/spec-idempotency-and-update.test.js',
  'http/spec-codes-items-ids.test.js',
  'http/pilot-sent-ids.test.js',
];

describe('replicas: the HTTP tests of the state kept in PostgreSQL, on a replica set', function () {
  this.timeout(600_000);
  let postgres: Postgres;
  let virtuoso: Virtuoso;

  before(async function () {
    if (externalSparqlUrl()) this.skip(); // reason: inside a child run of the suite this file is not one of the files run
    if (postgresMissing() ?? virtuosoMissing()) this.skip(); // reason: no PostgreSQL or Virtuoso here; .ci/run installs both
    [postgres, virtuoso] = await Promise.all([Postgres.start(), Virtuoso.start()]);
  });
  after(async () => {
    await Promise.all([virtuoso?.stop(), postgres?.stop()]);
  });

  it('passes them as a single node on its data dir does', async () => {
    const { code, output, summary } = await runChildSuite(FILES, {
      DATASPACE_TEST_SPARQL_URL: virtuoso.sparqlUrl,
      DATASPACE_TEST_DATABASE_URL: postgres.url,
    });
    console.log(`      on a replica set: ${summary}`);
    expect(code, output.slice(-20_000)).to.equal(0);
    expect(output).to.match(/\d+ passing/);
  });
});
