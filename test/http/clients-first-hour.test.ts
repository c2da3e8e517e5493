import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { logIn, TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';

const API = '/supply-chain/data-space';
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** A request exactly as `curl -X METHOD URL` sends it: no body, no Content-Length, no Content-Type. */
function bare(url: string, method: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => ok({ status: res.statusCode!, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('HTTP as clients expect it: body-less operations, 405 with Allow, the front door', function () {
  this.timeout(60_000);
  let node: TestNode;
  let token: string;
  let at: string;

  before(async () => {
    node = await TestNode.start();
    token = await node.login('forwarder');
    const c = consignment();
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).status).to.equal(201);
    at = `${API}/consignments/${encodeURIComponent(c.globalId as string)}`;
  });
  after(async () => {
    await node?.stop();
  });

  it('takes POST logout and refresh with no body, no Content-Length and no Content-Type', async () => {
    // A login of its own: a logout ends every token of its login, and the tests after this one use `token`.
    const own = await logIn(node.url, 'forwarder');
    const refreshed = await bare(`${node.url}/authentication/refresh`, 'POST', { authorization: `Bearer ${own}` });
    expect(refreshed.status, refreshed.body).to.equal(200);
    const fresh = JSON.parse(refreshed.body).token as string;
    const out = await bare(`${node.url}/authentication/logout`, 'POST', { authorization: `Bearer ${fresh}` });
    expect(out.status, out.body).to.equal(204);
    expect((await node.request('GET', `${API}/consignments`, { token: fresh })).status).to.equal(401);
  });

  it('still refuses a body that is not JSON (415), and answers a body-less POST that needs one with 400, not 500', async () => {
    const typed = await node.request('POST', `${API}/inbox`, { token, rawBody: 'x=1', headers: { 'content-type': 'text/plain' } });
    expect(typed.status).to.equal(415);
    for (const path of [`${API}/inbox`, `${API}/policies`, `${API}/validate`, `${API}/notification-endpoint`]) {
      const answer = await bare(`${node.url}${path}`, 'POST', { authorization: `Bearer ${token}` });
      expect(answer.status, `${path}: ${answer.body}`).to.be.within(400, 499);
      expect(JSON.parse(answer.body)).to.have.keys('name', 'message');
    }
  });

  it('answers PUT and DELETE on a consignment 405 with Allow, with or without credentials, and unknown paths 404', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      for (const auth of [{ authorization: `Bearer ${token}` }, {} as Record<string, string>]) {
        const answer = await bare(`${node.url}${at}`, method, auth);
        expect(answer.status, `${method} ${answer.body}`).to.equal(405);
        expect(JSON.parse(answer.body)).to.deep.include({ name: 'MethodNotAllowed' });
      }
    }
    const res = await fetch(`${node.url}${at}`, { method: 'DELETE' });
    expect(res.headers.get('allow')).to.equal('GET, HEAD');
    const login = await fetch(`${node.url}/authentication/login`, { method: 'DELETE' });
    expect(login.status).to.equal(405);
    expect(login.headers.get('allow')).to.equal('POST');
    // Methods the path does have go on as before; a path the API does not have is still 404.
    expect((await node.request('GET', at, { token })).status).to.equal(200);
    expect((await fetch(`${node.url}${at}`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } })).status).to.equal(200);
    const missing = await node.request('DELETE', `${API}/no-such-thing`, { token });
    expect(missing.status).to.equal(404);
  });

  it('opens GET / to anyone: a page for browsers leading to the console, the API reference and SPARQL; JSON for clients', async () => {
    const page = await node.request('GET', '/', { headers: { accept: BROWSER } });
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    expect(page.headers.get('content-security-policy')).to.include("script-src 'self'");
    for (const href of ['/console', '/docs', `${API}/sparql`]) expect(page.text).to.include(`href="${href}"`);
    for (const accept of [undefined, '*/*', 'application/json']) {
      const index = await node.request('GET', '/', { headers: accept === undefined ? {} : { accept } });
      expect(index.status, String(accept)).to.equal(200);
      expect(index.headers.get('content-type')).to.match(/^application\/json/);
      expect(index.body.links).to.include({
        console: `${node.url}/console`,
        apiReference: `${node.url}/docs`,
        sparql: `${node.url}${API}/sparql`,
        oauthMetadata: `${node.url}/.well-known/oauth-authorization-server`,
      });
    }
    // Every link of the index answers something other than 404 (401 where a login is needed).
    const index = (await node.request('GET', '/')).body;
    for (const url of Object.values(index.links as Record<string, string>)) {
      const status = (await fetch(url, { redirect: 'manual' })).status;
      expect(status, url).to.be.oneOf([200, 302, 303, 401, 405]);
    }
    const refused = await node.request('GET', '/', { headers: { accept: 'image/png' } });
    expect(refused.status).to.equal(406);
    expect((await fetch(`${node.url}/`, { method: 'POST' })).status).to.equal(405);
  });
});
