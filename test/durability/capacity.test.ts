import { expect } from 'chai';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';
import { readStoreConfig, DEFAULT_MAX_QUADS } from '../../src/store-config.js';

const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;

describe('capacity guard: 507 before the embedded store runs out of memory', function () {
  this.timeout(30_000);

  it('refuses new activities with 507 and a clear message once the quota is reached, storing nothing, and keeps reads working', async () => {
    const node = await TestNode.start({ DATASPACE_MAX_QUADS: '400' });
    try {
      const accepted: string[] = [];
      let refused: { status: number; body: any } | undefined;
      let refusedId = '';
      for (let i = 0; i < 30 && !refused; i++) {
        const c = consignment();
        const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
        if (res.status === 201) accepted.push(c.globalId);
        else {
          refused = res;
          refusedId = c.globalId;
        }
      }
      expect(accepted.length).to.be.above(0);
      expect(refused?.status).to.equal(507);
      expect(refused?.body).to.have.keys('name', 'message');
      expect(refused?.body.name).to.equal('InsufficientStorage');
      expect(refused?.body.message).to.match(/quota is 400 \(DATASPACE_MAX_QUADS\).*Nothing was stored/);
      expect((await node.as('forwarder', 'GET', consignmentPath(refusedId))).status).to.equal(404);
      for (const id of accepted) expect((await node.as('forwarder', 'GET', consignmentPath(id))).status).to.equal(200);
      // The quota is of the quads in the store's main instance; the activity log's apart has a memory of its own.
      const { capacity, metrics } = node.node.capabilities;
      expect(capacity!.heldQuads()).to.be.at.most(400);
      expect(metrics!.store.memorySizes.map((m) => m.instance)).to.deep.equal(['main', 'activity-log']);
      expect(await node.node.store.activityLog.ask('ASK { GRAPH ?g { ?s ?p ?o } }')).to.equal(true);
    } finally {
      await node.stop();
    }
  });

  it('is on by default for the embedded store and off for a SPARQL server', () => {
    expect(readStoreConfig({}).maxQuads).to.equal(DEFAULT_MAX_QUADS);
    expect(
      readStoreConfig({
        DATASPACE_STORE: 'sparql',
        DATASPACE_SPARQL_QUERY_URL: 'http://127.0.0.1:1/q',
        DATASPACE_SPARQL_UPDATE_URL: 'http://127.0.0.1:1/u',
      }).maxQuads,
    ).to.equal(0);
    expect(() => readStoreConfig({ DATASPACE_MAX_QUADS: 'lots' })).to.throw(/DATASPACE_MAX_QUADS must be an integer/);
    expect(() => readStoreConfig({ DATASPACE_STORE: 'sparql' })).to.throw(/needs DATASPACE_SPARQL_QUERY_URL/);
  });
});
