import { expect } from 'chai';
import { SignJWT } from 'jose';
import { TestNode, USERS } from '../helpers/test-node.js';
import { captured } from '../helpers/present.js';

const LOGIN = '/authentication/login';
const CONSIGNMENTS = '/supply-chain/data-space/consignments';
const SECRET = 'test-secret-0123456789abcdef';
const ISSUER = 'supply-chain-dataspace-node';

/** A token signed as the test wishes (HS256 unless told), with an expiry only when `expiresIn` (seconds) or `exp` says so. */
async function forge(
  claims: Record<string, unknown>,
  secret = SECRET,
  options: { algorithm?: string; expiresIn?: number } = {},
): Promise<string> {
  const token = new SignJWT(claims)
    .setProtectedHeader({ alg: options.algorithm ?? 'HS256' })
    .setIssuer(ISSUER)
    .setIssuedAt();
  if (options.expiresIn !== undefined) token.setExpirationTime(Math.floor(Date.now() / 1000) + options.expiresIn);
  return token.sign(new TextEncoder().encode(secret));
}

describe('login and authentication (spec 4.1, 5)', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  it('sets an HttpOnly, Path=/, SameSite=Strict access_token cookie and answers only {expiry}', async () => {
    const before = Date.now();
    const res = await node.request('POST', LOGIN, { body: { email: USERS.forwarder.email, password: USERS.forwarder.password } });
    expect(res.status).to.equal(200);
    expect(Object.keys(res.body)).to.deep.equal(['expiry']);
    expect(res.body.expiry).to.be.a('number').above(before);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).to.match(/^access_token=[^;]+/);
    expect(cookie).to.match(/HttpOnly/i);
    expect(cookie).to.match(/Path=\//);
    expect(cookie).to.match(/SameSite=Strict/i);
    expect(res.text).to.not.contain(captured(/access_token=([^;]+)/, cookie));
  });

  it('accepts the token as a cookie and as a Bearer header', async () => {
    const token = await node.login('forwarder');
    expect((await node.request('GET', CONSIGNMENTS, { headers: { cookie: `access_token=${token}` } })).status).to.equal(200);
    expect((await node.request('GET', CONSIGNMENTS, { token })).status).to.equal(200);
  });

  it('lets the Bearer header win when both are sent', async () => {
    const good = await node.login('forwarder');
    const withBadBearer = await node.request('GET', CONSIGNMENTS, {
      headers: { cookie: `access_token=${good}`, authorization: 'Bearer not-a-token' },
    });
    expect(withBadBearer.status).to.equal(401);
    const withGoodBearer = await node.request('GET', CONSIGNMENTS, {
      headers: { cookie: 'access_token=garbage', authorization: `Bearer ${good}` },
    });
    expect(withGoodBearer.status).to.equal(200);
  });

  const rejected: [string, () => Promise<Record<string, string>>][] = [
    ['no credentials', async () => ({})],
    ['a malformed Authorization header', async () => ({ authorization: 'Basic b3BzOnB3' })],
    [
      'alg none',
      async () => {
        const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
        const payload = Buffer.from(
          JSON.stringify({ sub: USERS.forwarder.email, org: USERS.forwarder.org, iss: ISSUER, exp: Math.floor(Date.now() / 1000) + 600 }),
        ).toString('base64url');
        return { authorization: `Bearer ${header}.${payload}.` };
      },
    ],
    [
      'a token signed with another secret',
      async () => ({
        authorization: `Bearer ${await forge({ sub: USERS.forwarder.email, org: USERS.forwarder.org }, 'another-secret', { expiresIn: 600 })}`,
      }),
    ],
    [
      'a tampered token',
      async () => {
        const [h, p = '', s] = (await node.login('forwarder')).split('.');
        const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
        claims.org = USERS.border.org;
        return { authorization: `Bearer ${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}` };
      },
    ],
    [
      'an expired token',
      async () => ({
        authorization: `Bearer ${await forge({ sub: USERS.forwarder.email, org: USERS.forwarder.org, exp: Math.floor(Date.now() / 1000) - 10 })}`,
      }),
    ],
    [
      'a token without expiry',
      async () => ({ authorization: `Bearer ${await forge({ sub: USERS.forwarder.email, org: USERS.forwarder.org })}` }),
    ],
    [
      'a token for an unknown user',
      async () => ({
        authorization: `Bearer ${await forge({ sub: 'ghost@nowhere.example', org: USERS.forwarder.org }, SECRET, { expiresIn: 600 })}`,
      }),
    ],
    [
      "a token whose organisation is not the user's",
      async () => ({
        authorization: `Bearer ${await forge({ sub: USERS.forwarder.email, org: USERS.border.org }, SECRET, { expiresIn: 600 })}`,
      }),
    ],
    [
      'a token with another algorithm (HS512)',
      async () => ({
        authorization: `Bearer ${await forge({ sub: USERS.forwarder.email, org: USERS.forwarder.org }, SECRET, { algorithm: 'HS512', expiresIn: 600 })}`,
      }),
    ],
  ];
  const endpoints: [string, string][] = [
    ['GET', CONSIGNMENTS],
    ['GET', `${CONSIGNMENTS}/x`],
    ['GET', `${CONSIGNMENTS}/x/documents`],
    ['GET', `${CONSIGNMENTS}/x/documents/y`],
    ['GET', '/supply-chain/data-space/documents'],
    ['GET', '/supply-chain/data-space/activity-logs/urn:uuid:x'],
    ['POST', '/supply-chain/data-space/inbox'],
  ];
  for (const [name, headers] of rejected) {
    it(`answers 401 with an UnauthorizedError body for ${name} on every endpoint`, async () => {
      const h = await headers();
      for (const [method, path] of endpoints) {
        const res = await node.request(method, path, { headers: h, body: method === 'POST' ? {} : undefined });
        expect(res.status, `${method} ${path}`).to.equal(401);
        expect(res.body).to.deep.include({ name: 'UnauthorizedError' });
        expect(res.body.message).to.be.a('string');
      }
    });
  }

  const badLogins: [string, unknown, number][] = [
    ['a wrong password', { email: USERS.forwarder.email, password: 'nope' }, 401],
    ['an unknown email', { email: 'ghost@nowhere.example', password: 'x' }, 401],
    ['no password', { email: USERS.forwarder.email }, 400],
    ['no email', { password: 'x' }, 400],
    ['a non-string email', { email: 42, password: 'x' }, 400],
    ['an array body', [], 400],
  ];
  for (const [name, body, status] of badLogins) {
    it(`answers ${status} for a login with ${name}`, async () => {
      const res = await node.request('POST', LOGIN, { body });
      expect(res.status).to.equal(status);
      expect(res.body).to.have.keys('name', 'message');
      expect(res.headers.get('set-cookie')).to.equal(null);
    });
  }

  it('answers 400 for a login body that is not JSON', async () => {
    const res = await node.request('POST', LOGIN, { rawBody: '{email', headers: { 'content-type': 'application/json' } });
    expect(res.status).to.equal(400);
    expect(res.body).to.have.keys('name', 'message');
  });

  it('answers unknown routes with 404 and an error body', async () => {
    const res = await node.as('forwarder', 'GET', '/nothing-here');
    expect(res.status).to.equal(404);
    expect(res.body).to.have.keys('name', 'message');
  });
});
