import { expect } from 'chai';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';
import { recordingLogger } from '../helpers/recording-logger.js';
import { nth } from '../helpers/present.js';

const SPARQL = '/supply-chain/data-space/sparql';
const DESCRIPTIONS =
  'SELECT ?id ?d WHERE { ?c <https://vocabulary.uncefact.org/globalId> ?id ; <https://vocabulary.uncefact.org/summaryDescription> ?d }';
const REPLACED = 'SPARQL engine thread replaced by a compact copy';

/**
 * Oxigraph never frees a removed quad: every Update leaves the old state graph in the memory of the
 * node's store and of each SPARQL engine thread's copy. Past DATASPACE_STORE_COMPACT_* both are
 * replaced by fresh copies (docs/memory-compaction.md) while answering throughout.
 */
const METRICS_TOKEN = 'metrics-token-0123456789';

describe('memory compaction through the HTTP interface', function () {
  this.timeout(120_000);

  it('replaces the engine threads one at a time and compacts the store after many Updates, every query seeing every acknowledged Update', async () => {
    const logger = recordingLogger();
    const node = await TestNode.start(
      {
        DATASPACE_STORE: 'embedded',
        DATASPACE_SPARQL_THREADS: '2',
        DATASPACE_SPARQL_IDLE_MS: '0',
        DATASPACE_STORE_COMPACT_PERCENT: '50',
        DATASPACE_STORE_COMPACT_MIN_QUADS: '300',
        DATASPACE_SNAPSHOT_LOG_BYTES: '65536',
        DATASPACE_METRICS_TOKEN: METRICS_TOKEN,
      },
      undefined,
      logger,
    );
    try {
      const token = await node.login('forwarder');
      const ask = () =>
        node.request('POST', SPARQL, {
          token,
          rawBody: DESCRIPTIONS,
          headers: { accept: 'application/sparql-results+json', 'content-type': 'application/sparql-query' },
        });
      const consignments = [consignment(), consignment(), consignment()];
      const expected = new Map<string, string>();
      for (const c of consignments) {
        expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).status).to.equal(201);
        expected.set(c.globalId, c.summaryDescription);
      }
      const check = async (when: string) => {
        const res = await ask();
        expect(res.status, `${when}: ${res.text}`).to.equal(200);
        const seen = new Map<string, string>(res.body.results.bindings.map((b: any) => [b.id.value, b.d.value]));
        expect(seen, when).to.deep.equal(expected);
      };
      await check('before any Update');

      const replaced = () => logger.messages.filter((m) => m === REPLACED).length;
      let replacedAt: number | undefined;
      let update = 0;
      // Until both threads have been replaced (one at a time) and a few Updates have gone to the new ones;
      // bounded. With these thresholds the second replacement comes after 130-150 Updates (measured), so
      // the bound leaves it room: at 150 the test failed one run in four, on main as on builds before it.
      for (; update < 300 && (replacedAt === undefined || update < replacedAt + 5); update++) {
        const c = nth(consignments, update % consignments.length);
        const description = `Machine parts, revision ${update}`;
        const res = await node.publish('forwarder', activity('Update', USERS.forwarder.org, { ...c, summaryDescription: description }));
        expect(res.status, res.text).to.equal(201);
        expected.set(c.globalId, description);
        // Asked at once after the acknowledgement, while a replacement may be starting or taking over.
        await check(`after Update ${update}`);
        if (replacedAt === undefined && replaced() >= 2) replacedAt = update;
      }
      expect(replacedAt, 'both engine threads were replaced').to.not.equal(undefined);
      expect(
        logger.messages.filter((m) => m === 'SPARQL engine thread ready'),
        'each started once, for the first query',
      ).to.have.length(2);
      expect(logger.messages).to.not.include('SPARQL engine thread not replaced; it goes on as it was');
      // One at a time: each replacement ends before the next begins.
      const replacements = logger.messages.filter((m) => m === REPLACED || m === 'SPARQL engine thread being replaced by a compact copy');
      replacements.forEach((m, i) =>
        expect(m, `replacement message ${i}`).to.equal(i % 2 === 0 ? 'SPARQL engine thread being replaced by a compact copy' : REPLACED),
      );
      await check('after the replacement');

      // The node's own store compacted at its snapshots meanwhile, and reads see every Update.
      await node.node.capabilities.snapshots!.idle();
      const metrics = await node.request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const compactions = /^dataspace_store_compactions_total (\d+)$/m.exec(metrics.text)?.[1];
      expect(Number(compactions), 'store compactions').to.be.at.least(1);
      expect(logger.messages).to.not.include('store compaction failed; the store is kept as it was, and the next snapshot tries again');
      for (const c of consignments) {
        const res = await node.as('forwarder', 'GET', `/supply-chain/data-space/consignments/${encodeURIComponent(c.globalId)}`);
        expect(res.status, res.text).to.equal(200);
        expect(JSON.stringify(res.body)).to.include(expected.get(c.globalId));
      }
    } finally {
      await node.stop();
    }
  });
});
