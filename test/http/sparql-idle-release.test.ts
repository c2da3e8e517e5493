import { expect } from 'chai';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';
import { recordingLogger } from '../helpers/recording-logger.js';
import { untilTrue } from '../helpers/until.js';
import { readSparqlConfig, DEFAULT_SPARQL_IDLE_MS } from '../../src/adapters/sparql-endpoint/config.js';

const SPARQL = '/supply-chain/data-space/sparql';
const IDS = 'SELECT ?id WHERE { ?c <https://vocabulary.uncefact.org/globalId> ?id }';

/**
 * DATASPACE_SPARQL_IDLE_MS: an engine with no query for that long stops its threads, freeing their
 * copies of the data (hundreds of MB per 10k consignments each, docs/performance.md); the next query
 * starts them again from the data dir, with every commit made meanwhile.
 */
describe('SPARQL engine threads released while idle', function () {
  this.timeout(60_000);

  it('stops the threads after the idle time and answers the next query with the commits made meanwhile', async () => {
    const logger = recordingLogger();
    // The embedded store whatever the suite's store: the engine threads are the embedded store's.
    const node = await TestNode.start(
      { DATASPACE_STORE: 'embedded', DATASPACE_SPARQL_THREADS: '2', DATASPACE_SPARQL_IDLE_MS: '400' },
      undefined,
      logger,
    );
    const count = (text: string) => logger.messages.filter((m) => m === text).length;
    try {
      const first = consignment();
      expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, first))).status).to.equal(201);
      const token = await node.login('forwarder');
      const ask = () =>
        node.request('POST', SPARQL, {
          token,
          rawBody: IDS,
          headers: { accept: 'application/sparql-results+json', 'content-type': 'application/sparql-query' },
        });
      const ids = (res: { body: any }) => res.body.results.bindings.map((b: any) => b.id.value).sort();

      const before = await ask();
      expect(before.status, before.text).to.equal(200);
      expect(ids(before)).to.deep.equal([first.globalId]);
      // The query ran on the first thread ready; the other may still be starting.
      await untilTrue(() => count('SPARQL engine thread ready') === 2, 20_000, 25);

      await untilTrue(() => count('SPARQL engine threads released while idle') === 1, 20_000, 25);
      // Written while no thread runs: the change is not sent anywhere; the next threads read it from disk.
      const second = consignment();
      expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, second))).status).to.equal(201);

      const after = await ask();
      expect(after.status, after.text).to.equal(200);
      expect(ids(after)).to.deep.equal([first.globalId, second.globalId].sort());
      await untilTrue(() => count('SPARQL engine thread ready') === 4, 20_000, 25);
    } finally {
      await node.stop();
    }
  });

  it('keeps the threads while queries come more often than the idle time', async () => {
    const logger = recordingLogger();
    const node = await TestNode.start(
      { DATASPACE_STORE: 'embedded', DATASPACE_SPARQL_THREADS: '1', DATASPACE_SPARQL_IDLE_MS: '1500' },
      undefined,
      logger,
    );
    try {
      const token = await node.login('forwarder');
      for (let i = 0; i < 6; i++) {
        const res = await node.request('POST', SPARQL, {
          token,
          rawBody: IDS,
          headers: { accept: 'application/sparql-results+json', 'content-type': 'application/sparql-query' },
        });
        expect(res.status, res.text).to.equal(200);
        await new Promise((ok) => setTimeout(ok, 400));
      }
      expect(logger.messages.filter((m) => m === 'SPARQL engine thread ready')).to.have.length(1);
      expect(logger.messages).to.not.include('SPARQL engine threads released while idle');
    } finally {
      await node.stop();
    }
  });

  it('reads DATASPACE_SPARQL_IDLE_MS: five minutes by default, 0 to keep the threads for good, no negative value', () => {
    expect(DEFAULT_SPARQL_IDLE_MS).to.equal(300_000);
    expect(readSparqlConfig({}).idleMs).to.equal(DEFAULT_SPARQL_IDLE_MS);
    expect(readSparqlConfig({ DATASPACE_SPARQL_IDLE_MS: '0' }).idleMs).to.equal(0);
    expect(() => readSparqlConfig({ DATASPACE_SPARQL_IDLE_MS: '-1' })).to.throw(/DATASPACE_SPARQL_IDLE_MS/);
  });
});
