import { expect } from 'chai';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';
import { pause, SignalReceiver } from '../helpers/signal-receiver.js';
import { SERVING_BOUND_MS, timedRead } from './serving.js';

const ENDPOINT = '/supply-chain/data-space/notification-endpoint';

/**
 * SSRF through notification endpoints: a receiver on 127.0.0.1 plays the internal service. The node
 * runs with the public-only default (DATASPACE_NOTIFY_ALLOW unset, i.e. `*`).
 */
describe('hostile notification endpoints', function () {
  this.timeout(30_000);
  let internal: SignalReceiver;
  before(async () => {
    // An internal service that would tell secrets in its answers.
    internal = await SignalReceiver.start(() => 418);
  });
  after(() => internal.close());

  describe('at registration', () => {
    let node: TestNode;
    before(async () => {
      node = await TestNode.start({ DATASPACE_NOTIFY_ALLOW: '*' });
    });
    after(() => node.stop());

    const internalUrls = (port: number): [string, string][] => [
      ['loopback', `http://127.0.0.1:${port}/hook`],
      ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
      ['a private address', 'http://10.1.2.3/hook'],
      ['IPv6 loopback', `http://[::1]:${port}/hook`],
      ['an IPv4-mapped IPv6 loopback', `http://[::ffff:127.0.0.1]:${port}/hook`],
      ['a name resolving to loopback', `http://localhost:${port}/hook`],
      ['the unspecified address', `http://0.0.0.0:${port}/hook`],
    ];
    for (const [name, url] of internalUrls(0)) {
      it(`refuses ${name} with 400, naming no DNS answer, and keeps serving`, async () => {
        const target = url.replace(':0/', `:${internal.port}/`);
        const res = await node.as('border', 'PUT', ENDPOINT, { url: target });
        expect(res.status).to.equal(400);
        expect(res.body).to.have.keys('name', 'message');
        expect(res.body.message).to.contain('DATASPACE_NOTIFY_ALLOW');
        expect(res.body.message).to.not.match(/127\.0\.0\.1|::1|169\.254/);
        expect((await node.as('border', 'GET', ENDPOINT)).body).to.not.have.property('url');
        const read = await timedRead(node);
        expect(read.status).to.equal(200);
        expect(read.ms).to.be.below(SERVING_BOUND_MS);
      });
    }

    it('never contacted the internal service', () => {
      expect(internal.received).to.have.length(0);
    });
  });

  describe('at delivery', () => {
    it('checks the address again when it delivers: an endpoint the policy no longer allows gets nothing, and the deliveries list tells nothing of it', async () => {
      // Registered while the operator allowed loopback, then the node restarts with the default policy:
      // the same position as a public name whose DNS answer later turns internal.
      const first = await TestNode.start({ DATASPACE_NOTIFY_ALLOW: '*,127.0.0.1' });
      const put = await first.as('douane', 'PUT', ENDPOINT, { url: internal.url });
      expect(put.status).to.equal(200);
      await first.stop(false);
      const node = await TestNode.start({ DATASPACE_NOTIFY_ALLOW: '*', DATASPACE_NOTIFY_RETRY_MS: '50' }, first.config.dataDir);
      try {
        const c = consignment();
        expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).status).to.equal(201);
        let douane: any;
        for (let i = 0; i < 100 && !douane?.lastError; i++) {
          await pause(50);
          const list = await node.as(
            'forwarder',
            'GET',
            `/supply-chain/data-space/consignments/${encodeURIComponent(c.globalId)}/deliveries`,
          );
          douane = (list.body as any[]).find((d) => JSON.stringify(d).includes(USERS.douane.org));
        }
        expect(internal.received).to.have.length(0);
        const text = JSON.stringify(douane);
        expect(text).to.contain('public host');
        expect(douane.lastStatus ?? null).to.equal(null);
        expect(text).to.not.match(/127\.0\.0\.1|I'm a teapot/);
        const read = await timedRead(node);
        expect(read.status).to.equal(200);
        expect(read.ms).to.be.below(SERVING_BOUND_MS);
      } finally {
        await node.stop();
      }
    });
  });
});
