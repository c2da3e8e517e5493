import { expect } from 'chai';
import { readConfig, ConfigError } from '../../src/config.js';
import { TestNode } from '../helpers/test-node.js';

const SPARQL = '/supply-chain/data-space/sparql';
const QUERY = 'ASK {}';

/**
 * A same-origin request keeps its cookie whichever address it reached the node at: browsers send
 * Origin on every POST, also to the page's own origin. Another origin's cookie is dropped.
 */
describe('own origins: the session cookie at any address the node answers on', () => {
  let node: TestNode;
  let cookie: string;

  before(async () => {
    // The base URL names neither the address the test reaches (127.0.0.1:port) nor the proxy's.
    node = await TestNode.start({
      DATASPACE_BASE_URL: 'http://localhost:3000',
      DATASPACE_PUBLIC_ORIGINS: 'https://node.example, https://other.example:8443',
    });
    cookie = `access_token=${await node.login('forwarder')}`;
  });
  after(async () => {
    await node.stop();
  });

  const sparqlPost = (origin?: string, host?: string) =>
    node.request('POST', SPARQL, {
      rawBody: QUERY,
      headers: {
        cookie,
        'content-type': 'application/sparql-query',
        accept: 'application/sparql-results+json',
        ...(origin ? { origin } : {}),
        ...(host ? { host } : {}),
      },
    });

  const cases: Array<{ name: string; origin?: string; host?: string; status: number }> = [
    { name: 'no Origin (not a browser page)', status: 200 },
    { name: 'Origin of the address reached, not the base URL', origin: 'ORIGIN', status: 200 },
    { name: 'Origin of the base URL', origin: 'http://localhost:3000', status: 200 },
    { name: 'a listed public origin (TLS proxy)', origin: 'https://node.example', status: 200 },
    { name: 'the second listed public origin', origin: 'https://other.example:8443', status: 200 },
    { name: 'the address reached on the other scheme', origin: 'HTTPS-ORIGIN', status: 401 },
    { name: 'another site', origin: 'https://evil.example', status: 401 },
    { name: 'another port of the same host', origin: 'http://127.0.0.1:1', status: 401 },
  ];
  for (const c of cases) {
    it(`${c.status === 200 ? 'keeps' : 'drops'} the cookie: ${c.name}`, async () => {
      const origin = c.origin === 'ORIGIN' ? node.url : c.origin === 'HTTPS-ORIGIN' ? node.url.replace('http:', 'https:') : c.origin;
      const res = await sparqlPost(origin, c.host);
      expect(res.status, res.text).to.equal(c.status);
      if (c.status === 200) expect(res.body.boolean).to.equal(true);
      else expect(res.body.name).to.equal('UnauthorizedError');
    });
  }

  it('refuses DATASPACE_PUBLIC_ORIGINS entries that are not bare origins, naming the variable', () => {
    for (const bad of ['node.example', 'https://node.example/app', 'ftp://node.example', 'https://']) {
      expect(() => readConfig({ DATASPACE_PUBLIC_ORIGINS: bad }), bad).to.throw(ConfigError, /DATASPACE_PUBLIC_ORIGINS/);
    }
    expect(readConfig({ DATASPACE_PUBLIC_ORIGINS: 'https://a.example/, http://b.example:81' }).publicOrigins).to.deep.equal([
      'https://a.example',
      'http://b.example:81',
    ]);
  });

  it('names the document\'s own address first among the OpenAPI servers, so "Try it out" stays on the page\'s origin', async () => {
    const doc = (await node.request('GET', '/openapi.json')).body;
    expect(doc.servers.map((s: { url: string }) => s.url)).to.deep.equal(['/', 'http://localhost:3000']);
  });
});
