import { expect } from 'chai';
import { logIn, TestNode, USERS } from '../helpers/test-node.js';

const LOGIN = '/authentication/login';
const REFRESH = '/authentication/refresh';
const LOGOUT = '/authentication/logout';
const TOKEN = '/authentication/token';
const CLIENTS = '/supply-chain/data-space/organisation/clients';
const CONSIGNMENTS = '/supply-chain/data-space/consignments';
const SESSION_MAX_SECONDS = 120;
// Long enough that the reads right after the rotation fall inside it on a loaded machine.
const OVERLAP_SECONDS = 6;

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * Sessions end as a whole: a logout with any token of a login ends every token refreshed from it, a
 * refresh chain ends a bounded time after its login, and a client's rotated secret ends the sessions
 * begun before its overlap window closed, once it has.
 */
describe('isolation: sessions end as a whole', function () {
  this.timeout(60_000);
  let node: TestNode;
  before(async () => {
    node = await TestNode.start({
      DATASPACE_SESSION_MAX_SECONDS: String(SESSION_MAX_SECONDS),
      DATASPACE_CLIENT_SECRET_OVERLAP_SECONDS: String(OVERLAP_SECONDS),
    });
  });
  after(async () => {
    await node.stop();
  });

  const reads = async (token: string) => (await node.request('GET', CONSIGNMENTS, { token })).status;
  const refreshed = async (token: string): Promise<{ token: string; expiry: number }> => {
    const res = await node.request('POST', REFRESH, { token });
    expect(res.status, res.text).to.equal(200);
    return res.body as { token: string; expiry: number };
  };

  it('ends every token refreshed from a login when any one of them logs out, and only those', async () => {
    for (const outWith of [0, 2]) {
      const first = await logIn(node.url, 'forwarder');
      const other = await logIn(node.url, 'forwarder');
      const second = (await refreshed(first)).token;
      const third = (await refreshed(second)).token;
      const chain = [first, second, third];
      for (const token of chain) expect(await reads(token)).to.equal(200);
      expect((await node.request('POST', LOGOUT, { token: chain[outWith] })).status).to.be.below(300);
      for (const token of chain) {
        expect(await reads(token), `token ${chain.indexOf(token)} after a logout with token ${outWith}`).to.equal(401);
        expect((await node.request('POST', REFRESH, { token })).status).to.equal(401);
      }
      // Another login of the same user is another session.
      expect(await reads(other)).to.equal(200);
    }
  });

  it('bounds a refresh chain by the session: no refresh ends later than its login plus DATASPACE_SESSION_MAX_SECONDS', async () => {
    const res = await node.request('POST', LOGIN, { body: { email: USERS.forwarder.email, password: USERS.forwarder.password } });
    const loggedIn = Date.now();
    expect(res.status).to.equal(200);
    const token = /access_token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
    const sessionEnd = res.body.expiry as number;
    expect(sessionEnd).to.be.within(loggedIn - 2000, loggedIn + SESSION_MAX_SECONDS * 1000 + 1000);
    let current = token;
    for (let i = 0; i < 3; i++) {
      const next = await refreshed(current);
      expect(next.expiry).to.equal(sessionEnd);
      current = next.token;
    }
  });

  it("ends a client's tokens and their refreshes once a rotated secret's overlap window closes", async () => {
    const admin = await logIn(node.url, 'forwarder');
    const made = await node.request('POST', CLIENTS, { token: admin, body: { clientId: 'GB-SESSIONS' } });
    expect(made.status).to.equal(201);
    const secretToken = async (secret: string) =>
      node.request('POST', TOKEN, {
        rawBody: 'grant_type=client_credentials',
        headers: { ...FORM, authorization: basic('GB-SESSIONS', secret) },
      });
    const token = (await secretToken(made.body.clientSecret)).body.access_token as string;
    const again = (await refreshed(token)).token;
    const rotated = await node.request('POST', `${CLIENTS}/GB-SESSIONS/secret`, { token: admin });
    expect(rotated.status).to.equal(200);
    // In the overlap window the client switches over undisturbed.
    expect([await reads(token), await reads(again)]).to.deep.equal([200, 200]);
    await new Promise((ok) => setTimeout(ok, OVERLAP_SECONDS * 1000 + 500));
    expect([await reads(token), await reads(again)]).to.deep.equal([401, 401]);
    expect((await node.request('POST', REFRESH, { token: again })).status).to.equal(401);
    expect((await secretToken(made.body.clientSecret)).status).to.equal(401);
    const fresh = await secretToken(rotated.body.clientSecret);
    expect(fresh.status).to.equal(200);
    expect(await reads(fresh.body.access_token as string)).to.equal(200);
  });
});
