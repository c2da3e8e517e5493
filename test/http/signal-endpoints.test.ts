import { expect } from 'chai';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';
import { SignalReceiver, signatureValid, testSecret } from '../helpers/signal-receiver.js';
import { nth } from '../helpers/present.js';

const ENDPOINT = '/supply-chain/data-space/notification-endpoint';

describe('signals: notification endpoints', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start({ DATASPACE_NOTIFY_RETRY_MS: '20' });
  });
  after(async () => {
    await node.stop();
  });

  it('starts with no endpoint for an organisation the seed gives none', async () => {
    const res = await node.as('douane', 'GET', ENDPOINT);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ hasSecret: false });
  });

  it("registers the caller's own endpoint and shows it without the secret", async () => {
    const secret = testSecret('endpoint');
    const put = await node.as('border', 'PUT', ENDPOINT, { url: 'https://hooks.border.example/signals?x=1', secret });
    expect(put.status).to.equal(200);
    expect(put.body).to.deep.equal({ url: 'https://hooks.border.example/signals?x=1', hasSecret: true });
    const get = await node.as('border', 'GET', ENDPOINT);
    expect(get.body).to.deep.equal({ url: 'https://hooks.border.example/signals?x=1', hasSecret: true });
    expect(get.text).to.not.contain(secret.slice(6));
    // Only the caller's own organisation changed.
    expect((await node.as('douane', 'GET', ENDPOINT)).body).to.deep.equal({ hasSecret: false });
  });

  it('keeps the secret when only the url changes, and generates one, shown once, when there was none', async () => {
    const first = await node.as('port', 'PUT', ENDPOINT, { url: 'http://127.0.0.1:9/a' });
    expect(first.status).to.equal(200);
    expect(first.body.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const second = await node.as('port', 'PUT', ENDPOINT, { url: 'http://127.0.0.1:9/b' });
    expect(second.body).to.deep.equal({ url: 'http://127.0.0.1:9/b', hasSecret: true });
  });

  it('signs with a generated secret that the receiver can verify', async () => {
    const receiver = await SignalReceiver.start();
    try {
      const put = await node.as('douane', 'PUT', ENDPOINT, { url: receiver.url });
      const c = consignment();
      await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      const received = nth(await receiver.until((r) => r.some((x) => x.json?.consignment?.globalId === c.globalId)), 0);
      expect(signatureValid(put.body.secret, received)).to.equal(true);
    } finally {
      await receiver.close();
    }
  });

  const refused: [string, unknown][] = [
    ['no url', {}],
    ['an empty url', { url: '' }],
    ['a url that is not a string', { url: 42 }],
    ['a relative url', { url: '/hooks' }],
    ['an ftp url', { url: 'ftp://hooks.example/x' }],
    ['a file url', { url: 'file:///etc/passwd' }],
    ['a javascript url', { url: 'javascript:alert(1)' }],
    ['a url with credentials', { url: 'https://user:pass@hooks.example/x' }],
    ['a url with spaces', { url: 'https://hooks.example/a b' }],
    ['a very long url', { url: `https://hooks.example/${'a'.repeat(3000)}` }],
    ['a secret without whsec_', { url: 'https://hooks.example/x', secret: 'c2VjcmV0' }],
    ['a secret that is not base64', { url: 'https://hooks.example/x', secret: 'whsec_not base64!' }],
    ['a secret that is not a string', { url: 'https://hooks.example/x', secret: 7 }],
    ['an unknown field', { url: 'https://hooks.example/x', secrets: 'whsec_c2VjcmV0' }],
    ['an array body', [{ url: 'https://hooks.example/x' }]],
  ];
  for (const [name, body] of refused) {
    it(`refuses ${name} with 400 and keeps the endpoint`, async () => {
      const before = (await node.as('rotterdam', 'GET', ENDPOINT)).body;
      const res = await node.as('rotterdam', 'PUT', ENDPOINT, body);
      expect(res.status).to.equal(400);
      expect(res.body).to.have.keys('name', 'message');
      expect((await node.as('rotterdam', 'GET', ENDPOINT)).body).to.deep.equal(before);
    });
  }

  it('needs credentials', async () => {
    expect((await node.request('GET', ENDPOINT)).status).to.equal(401);
    expect((await node.request('PUT', ENDPOINT, { body: { url: 'https://hooks.example/x' } })).status).to.equal(401);
  });

  it('keeps a registered endpoint across a restart, although the seed is applied again', async () => {
    const dataDir = node.config.dataDir;
    const before = (await node.as('border', 'GET', ENDPOINT)).body;
    await node.stop(false);
    node = await TestNode.start({ DATASPACE_NOTIFY_RETRY_MS: '20' }, dataDir);
    expect((await node.as('border', 'GET', ENDPOINT)).body).to.deep.equal(before);
  });
});
