import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashPassword } from '../../src/core/auth/passwords.js';
import { scratchDir } from '../helpers/scratch-dirs.js';
import { logIn, TEST_SEED, TestNode, USERS } from '../helpers/test-node.js';
import { captured } from '../helpers/present.js';

const CONSIGNMENTS = '/supply-chain/data-space/consignments';
const LOGOUT = '/authentication/logout';
const REFRESH = '/authentication/refresh';

type SeedDoc = { users: { email: string; password?: string; passwordHash?: string; organisation: string }[] };

/** A copy of the test seed, changed by `edit`, at a path of its own. */
function seedFile(dir: string, edit: (seed: SeedDoc) => void = () => undefined): string {
  const seed = JSON.parse(readFileSync(TEST_SEED, 'utf8')) as SeedDoc;
  edit(seed);
  const path = join(dir, 'seed.json');
  writeFileSync(path, JSON.stringify(seed));
  return path;
}

const reads = async (node: TestNode, token: string): Promise<number> => (await node.request('GET', CONSIGNMENTS, { token })).status;

describe('accounts: logout, refresh and revocation that holds across restarts', () => {
  describe('logout and refresh', () => {
    let node: TestNode;
    before(async () => {
      node = await TestNode.start();
    });
    after(async () => {
      await node.stop();
    });

    it("ends the token at once on GET and on POST logout, clears the cookie, and leaves the user's other tokens alone", async () => {
      for (const method of ['GET', 'POST']) {
        const [ended, other] = [await logIn(node.url, 'forwarder'), await logIn(node.url, 'forwarder')];
        expect(await reads(node, ended)).to.equal(200);
        const out = await node.request(method, LOGOUT, { token: ended });
        expect(out.status, method).to.equal(204);
        expect(out.headers.get('set-cookie')).to.match(/^access_token=;.*Expires=Thu, 01 Jan 1970/);
        const refused = await node.request('GET', CONSIGNMENTS, { token: ended });
        expect(refused.status).to.equal(401);
        expect(refused.body).to.deep.equal({ name: 'UnauthorizedError', message: 'The token was ended by a logout: log in again' });
        expect(await reads(node, other), 'another token of the same user').to.equal(200);
      }
    });

    it("ends a cookie session's token, and answers 204 clearing the cookie when there is no valid token", async () => {
      const token = await logIn(node.url, 'border');
      expect((await node.request('GET', LOGOUT, { headers: { cookie: `access_token=${token}` } })).status).to.equal(204);
      expect((await node.request('GET', CONSIGNMENTS, { headers: { cookie: `access_token=${token}` } })).status).to.equal(401);
      const headerSets: Record<string, string>[] = [{}, { cookie: 'access_token=garbage' }, { cookie: `access_token=${token}` }];
      for (const headers of headerSets) {
        const again = await node.request('GET', LOGOUT, { headers });
        expect(again.status).to.equal(204);
        expect(again.headers.get('set-cookie')).to.match(/^access_token=;/);
      }
    });

    it('refreshes: a fresh token and expiry with the login cookie, the token in the body only for a Bearer caller', async () => {
      const token = await logIn(node.url, 'port');
      const bearer = await node.request('GET', REFRESH, { token });
      expect(bearer.status).to.equal(200);
      expect(bearer.body).to.have.keys('token', 'expiry');
      expect(bearer.body.expiry).to.be.a('number').above(Date.now());
      expect(bearer.headers.get('cache-control')).to.equal('no-store');
      const cookie = bearer.headers.get('set-cookie')!;
      expect(cookie)
        .to.match(/HttpOnly/i)
        .and.to.match(/SameSite=Strict/i)
        .and.to.match(/Path=\//);
      expect(captured(/access_token=([^;]+)/, cookie))
        .to.equal(bearer.body.token)
        .and.to.not.equal(token);
      const viaCookie = await node.request('POST', REFRESH, { headers: { cookie: `access_token=${bearer.body.token}` } });
      expect(viaCookie.status).to.equal(200);
      expect(viaCookie.body).to.have.keys('expiry');
      // The new token is of the same session (issue 48): ending the old one ends it too.
      expect((await node.request('GET', LOGOUT, { token })).status).to.equal(204);
      expect(await reads(node, bearer.body.token)).to.equal(401);
      expect((await node.request('GET', REFRESH, { token })).status).to.equal(401);
      expect((await node.request('GET', REFRESH)).status).to.equal(401);
    });

    it('ends the token when the console logs out, not only the cookie', async () => {
      const token = await logIn(node.url, 'douane');
      const page = await node.request('GET', '/console/consignments', { headers: { cookie: `access_token=${token}` } });
      const csrf = captured(/name="_csrf" value="([^"]+)"/, page.text);
      const out = await node.request('POST', '/console/logout', {
        rawBody: new URLSearchParams({ _csrf: csrf }).toString(),
        headers: { cookie: `access_token=${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(out.status).to.equal(303);
      expect(await reads(node, token)).to.equal(401);
    });

    it('ends every token of an account past its share of the denylist (20 live logouts), so memory stays bounded', async () => {
      const kept = await logIn(node.url, 'rotterdam');
      for (let i = 0; i < 20; i++)
        expect((await node.request('GET', LOGOUT, { token: await logIn(node.url, 'rotterdam') })).status).to.equal(204);
      expect(await reads(node, kept), 'within the share, other tokens live on').to.equal(200);
      expect((await node.request('GET', LOGOUT, { token: await logIn(node.url, 'rotterdam') })).status).to.equal(204);
      const refused = await node.request('GET', CONSIGNMENTS, { token: kept });
      expect(refused.status).to.equal(401);
      expect(refused.body.message).to.equal('The token was revoked: log in again');
      expect(await reads(node, await logIn(node.url, 'rotterdam')), 'a new login works').to.equal(200);
    });
  });

  describe('after a restart', () => {
    it('still refuses a logged-out token and keeps the others', async () => {
      const first = await TestNode.start();
      const [ended, kept] = [await logIn(first.url, 'forwarder'), await logIn(first.url, 'forwarder')];
      expect((await first.request('GET', LOGOUT, { token: ended })).status).to.equal(204);
      await first.stop(false);
      const second = await TestNode.start({}, first.config.dataDir);
      try {
        expect(await reads(second, ended)).to.equal(401);
        expect(await reads(second, kept)).to.equal(200);
      } finally {
        await second.stop();
      }
    });

    it('ends the tokens of a user the seed no longer lists, and the user cannot log in', async () => {
      const dir = scratchDir('dataspace-seed-');
      const first = await TestNode.start({ DATASPACE_SEED: seedFile(dir) });
      const [gone, stays] = [await logIn(first.url, 'otherForwarder'), await logIn(first.url, 'forwarder')];
      await first.stop(false);
      const seed = seedFile(dir, (s) => {
        s.users = s.users.filter((u) => u.email !== USERS.otherForwarder.email);
      });
      const second = await TestNode.start({ DATASPACE_SEED: seed }, first.config.dataDir);
      try {
        expect(await reads(second, gone)).to.equal(401);
        expect(await reads(second, stays)).to.equal(200);
        const login = await second.request('POST', '/authentication/login', {
          body: { email: USERS.otherForwarder.email, password: USERS.otherForwarder.password },
        });
        expect(login.status).to.equal(401);
      } finally {
        await second.stop();
      }
    });

    it('ends the tokens of a user whose password the seed changed, as clear text or as a hash', async () => {
      const dir = scratchDir('dataspace-seed-');
      const first = await TestNode.start({ DATASPACE_SEED: seedFile(dir) });
      const [forwarder, border, port] = [
        await logIn(first.url, 'forwarder'),
        await logIn(first.url, 'border'),
        await logIn(first.url, 'port'),
      ];
      await first.stop(false);
      const hash = await hashPassword('border-new-pass');
      const seed = seedFile(dir, (s) => {
        s.users.find((u) => u.email === USERS.forwarder.email)!.password = 'forwarder-new-pass';
        const b = s.users.find((u) => u.email === USERS.border.email)!;
        delete b.password;
        b.passwordHash = hash;
      });
      const second = await TestNode.start({ DATASPACE_SEED: seed }, first.config.dataDir);
      try {
        const login = (email: string, password: string) => second.request('POST', '/authentication/login', { body: { email, password } });
        expect((await login(USERS.forwarder.email, 'forwarder-new-pass')).status).to.equal(200);
        expect(await reads(second, forwarder)).to.equal(401);
        expect(await reads(second, border)).to.equal(401);
        expect(await reads(second, port), 'a user the seed did not change').to.equal(200);
        expect((await login(USERS.border.email, 'border-new-pass')).status).to.equal(200);
        expect((await login(USERS.border.email, USERS.border.password)).status).to.equal(401);
      } finally {
        await second.stop();
      }
    });
  });
});
