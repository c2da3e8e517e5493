import { expect } from 'chai';
import { runChildSuite } from '../helpers/child-suite.js';
import { externalSparqlUrl } from '../helpers/external-store.js';
import { haproxyMissing } from '../helpers/haproxy.js';
import { Postgres, postgresMissing } from '../helpers/postgres.js';
import { Virtuoso, virtuosoMissing } from '../helpers/virtuoso.js';

/**
 * The HTTP suite with its requests spread over a replica set (test/helpers/spread-set.ts): every
 * TestNode is two replicas on PostgreSQL and Virtuoso behind HAProxy, the writer and a follower, the
 * client sending back the Dataspace-Position it was given. Two groups, each a child run of its own
 * (about 4 min each at load 12); DATASPACE_TEST_SPREAD_FILES (comma-separated, under dist/test) runs
 * other files instead. policy-lists.test.js is not spread: its plain-SPARQL case spends 20–30 s in
 * Virtuoso's policy queries at load 12, spread or not (bench/results/2026-12-08-replicas-speed.md),
 * and replica-http.test.ts runs it on a set already; its lists are spread in list-filters.test.js.
 */
const GROUPS: Record<string, string[]> = process.env.DATASPACE_TEST_SPREAD_FILES
  ? { 'the files asked for': process.env.DATASPACE_TEST_SPREAD_FILES.split(',') }
  : {
      'writes, reads, lists, policies, signals and the change feed': [
        // Writes through either replica, reads on both with the position header, retries answered once.
        'http/inbox-and-reads.test.js',
        'http/spec-idempotency-and-update.test.js',
        // Lists and finds from the follower's catalog in PostgreSQL; policies followed by the follower.
        'http/list-filters.test.js',
        'http/policy-routes.test.js',
        // Signals sent by both replicas, in order, their outcomes recorded by the writer.
        'http/signal-delivery.test.js',
        // A token revoked through one replica refused by the other; every operation answered as documented.
        'http/accounts-revocation.test.js',
        'http/openapi-answers.test.js',
        // The change feed (forwarded to the writer), read across a restart of the set.
        'http/change-feed.test.js',
      ],
      'accounts, clients, documents, signals listed and the spec forms': [
        // Tokens, machine clients and endpoints made through one replica, used through the other; login
        // counters kept by the writer behind the follower's hop.
        'http/login-and-tokens.test.js',
        'http/login-behind-proxy.test.js',
        'http/machine-clients.test.js',
        'http/signal-endpoints.test.js',
        'http/signal-triggers.test.js',
        // Documents' files in PostgreSQL, served by either replica.
        'http/documents-files.test.js',
        // The receivers' ledger (forwarded to the writer), and its catch-up after a writer that died.
        'http/signals-received.test.js',
        'replicas/signals-ledger-catch-up.child.js',
        'http/spec-dates-and-nulls.test.js',
        'http/spec-codes-items-ids.test.js',
        'http/pilot-sent-ids.test.js',
      ],
    };

describe('replicas: HTTP tests with their requests spread over two replicas behind HAProxy', function () {
  this.timeout(900_000);
  let postgres: Postgres;
  let virtuoso: Virtuoso;

  before(async function () {
    if (externalSparqlUrl()) this.skip(); // reason: inside a child run of the suite this file is not one of the files run
    if (postgresMissing() ?? virtuosoMissing() ?? haproxyMissing()) this.skip(); // reason: no PostgreSQL, Virtuoso or HAProxy here; .ci/run installs them
    [postgres, virtuoso] = await Promise.all([Postgres.start(), Virtuoso.start()]);
  });
  after(async () => {
    await Promise.all([virtuoso?.stop(), postgres?.stop()]);
  });

  for (const [group, files] of Object.entries(GROUPS))
    it(`passes them as a single node does: ${group}`, async () => {
      const { code, output, summary } = await runChildSuite(files, {
        DATASPACE_TEST_SPARQL_URL: virtuoso.sparqlUrl,
        DATASPACE_TEST_DATABASE_URL: postgres.url,
        DATASPACE_TEST_SPREAD: '1',
      });
      console.log(`      spread over two replicas: ${summary}`);
      expect(code, output.slice(-20_000)).to.equal(0);
      expect(output).to.match(/\d+ passing/);
    });
});
