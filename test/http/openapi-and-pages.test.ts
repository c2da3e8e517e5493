import { expect } from 'chai';
import type { Express } from 'express';
import sparqljs from 'sparqljs';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, document, target } from '../helpers/payloads.js';
import { exampleNames } from '../../src/adapters/http/pages/sparql-examples.js';
import { captured } from '../helpers/present.js';

const API = '/supply-chain/data-space';
const SPARQL = `${API}/sparql`;
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every route the app registered, as "METHOD /path/{param}", from express's own router. */
function registeredRoutes(app: Express): Set<string> {
  const found = new Set<string>();
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) {
          found.add(`${method.toUpperCase()} ${layer.route.path.replace(/:(\w+)/g, '{$1}')}`);
        }
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found;
}

describe('OpenAPI document, console and SPARQL page over HTTP', () => {
  let node: TestNode;
  const shipment = consignment({ summaryDescription: '<img src=x onerror="alert(1)"> & co' });

  before(async () => {
    node = await TestNode.start();
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, shipment));
    await node.publish(
      'forwarder',
      activity('Add', USERS.forwarder.org, document('INV-9', { uRIId: 'data:application/pdf;base64,JVBERi0xLjQK' }), target(shipment)),
    );
  });
  after(async () => {
    await node.stop();
  });

  describe('/openapi.json', () => {
    it('describes exactly the routes the app registered, and nothing it did not', async () => {
      const doc = (await node.request('GET', '/openapi.json')).body;
      expect(doc.openapi).to.equal('3.1.0');
      const documented = new Set<string>();
      for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
        for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
      }
      const registered = registeredRoutes(node.node.app);
      // Browser pages are not API: the console, and the 405 catch-all of the SPARQL endpoint (any method).
      const api = [...registered].filter((r) => !/^[A-Z_]+ \/console/.test(r) && !r.startsWith('_ALL '));
      expect(api).to.include.members([`GET ${API}/consignments/{id}`, `POST ${API}/inbox`, 'GET /openapi.json', `GET ${SPARQL}`]);
      expect(
        [...documented].filter((r) => !registered.has(r)),
        'documented but not registered',
      ).to.deep.equal([]);
      expect(
        api.filter((r) => !documented.has(r)),
        'registered but not documented',
      ).to.deep.equal([]);
    });

    it('resolves every schema reference, gives every operation a 2xx answer and the configured page limits', async () => {
      const doc = (await node.request('GET', '/openapi.json')).body;
      const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
      for (const ref of new Set(refs)) expect(doc.components.schemas, ref).to.have.property(ref.slice(22, -1));
      for (const item of Object.values(doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)) {
        for (const op of Object.values(item)) expect(Object.keys(op.responses).some((s) => s.startsWith('2'))).to.equal(true);
      }
      const limit = doc.paths[`${API}/consignments`].get.parameters.find((p: { name: string }) => p.name === 'limit');
      expect(limit.schema).to.include({ maximum: node.config.pageLimitMax, default: node.config.pageLimitDefault });
      expect(doc.paths['/authentication/login'].post.security).to.deep.equal([]);
    });

    it('is served without credentials, and so is /docs with its assets from this node only', async () => {
      const docs = await node.request('GET', '/docs');
      expect(docs.status).to.equal(200);
      expect(docs.headers.get('content-security-policy')).to.include("script-src 'self'");
      for (const src of docs.text.match(/(?:src|href)="([^"]+)"/g) ?? []) expect(src).to.match(/="\//);
      expect((await node.request('GET', '/docs/assets/swagger-ui-bundle.js')).status).to.equal(200);
    });
  });

  describe('the SPARQL page', () => {
    it('answers a browser with the YASGUI page and everyone else as before', async () => {
      const token = await node.login('forwarder');
      const page = await node.request('GET', SPARQL, { token, headers: { accept: BROWSER } });
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      expect(page.headers.get('vary')).to.match(/Accept/i);
      expect(page.text).to.include('/assets/yasgui/yasgui.min.js');
      const config = JSON.parse(captured(/<script type="application\/json" id="sparql-config">([^<]*)<\/script>/, page.text));
      expect(config.endpoint).to.equal(SPARQL);
      expect(config.examples.map((e: { title: string }) => e.title)).to.include.members([
        'Consignments I can see',
        'Events of a consignment',
        'Documents and their revisions',
      ]);
      // The examples are filled in with a consignment the caller can see.
      expect(config.examples.find((e: { title: string }) => e.title === 'Events of a consignment').query).to.include(
        `"${shipment.globalId}"`,
      );

      const description = await node.request('GET', SPARQL, { token, headers: { accept: '*/*' } });
      expect(description.headers.get('content-type')).to.not.match(/html/);
      expect(
        (await node.request('GET', SPARQL, { token, headers: { accept: 'application/sparql-results+json' } })).headers.get('content-type'),
      ).to.not.match(/html/);
      const anonymous = await node.request('GET', SPARQL, { headers: { accept: BROWSER } });
      expect(anonymous.status).to.equal(303);
      expect(anonymous.headers.get('location')).to.equal(`/console/login?next=${encodeURIComponent(SPARQL)}`);
      // A token that does not verify (checked asynchronously) sends the browser to the login page as well.
      const forged = await node.request('GET', SPARQL, { token: `${token}x`, headers: { accept: BROWSER } });
      expect(forged.status).to.equal(303);
      expect(forged.headers.get('location')).to.equal(`/console/login?next=${encodeURIComponent(SPARQL)}`);
      // The service description is public (issue 16): no html for a client that did not ask for it.
      const publicDescription = await node.request('GET', SPARQL, { headers: { accept: '*/*' } });
      expect(publicDescription.status).to.equal(200);
      expect(publicDescription.headers.get('content-type')).to.not.match(/html/);
    });

    it('ships example queries that are valid SPARQL and answer over the endpoint', async () => {
      const token = await node.login('forwarder');
      const page = await node.request('GET', SPARQL, { token, headers: { accept: BROWSER } });
      const config = JSON.parse(captured(/id="sparql-config">([^<]*)</, page.text));
      expect(config.examples).to.have.length(exampleNames().length);
      for (const example of config.examples as { title: string; query: string }[]) {
        new sparqljs.Parser().parse(example.query);
        const res = await node.request('POST', SPARQL, {
          token,
          rawBody: example.query,
          headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json' },
        });
        expect(res.status, `${example.title}: ${res.text}`).to.equal(200);
      }
      const run = async (title: string) => {
        const query = config.examples.find((e: { title: string }) => e.title === title).query;
        return (
          await node.request('POST', SPARQL, {
            token,
            rawBody: query,
            headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json' },
          })
        ).body.results.bindings;
      };
      expect((await run('Consignments I can see')).map((b: any) => b.globalId.value)).to.deep.equal([shipment.globalId]);
      expect((await run('Documents and their revisions')).map((b: any) => [b.identifier.value, b.versionId.value])).to.deep.equal([
        ['INV-9', '1'],
      ]);
      // Another organisation's page and examples see none of it.
      const other = await node.request('GET', SPARQL, { token: await node.login('otherForwarder'), headers: { accept: BROWSER } });
      expect(other.text).to.not.include(shipment.globalId);
    });
  });

  describe('the console', () => {
    const cookie = async () => `access_token=${await node.login('forwarder')}`;
    const csrfOf = (text: string) => captured(/name="_csrf" value="([^"]+)"/, text);

    it('escapes what publishers wrote', async () => {
      const page = await node.request('GET', `/console/consignments/${encodeURIComponent(shipment.globalId)}`, {
        headers: { cookie: await cookie() },
      });
      expect(page.status).to.equal(200);
      expect(page.text).to.include('&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; co');
      expect(page.text).to.not.include('<img src=x');
    });

    it('answers a consignment the caller may not read like a missing one, as a page', async () => {
      const theirs = await node.request('GET', `/console/consignments/${encodeURIComponent(shipment.globalId)}`, {
        headers: { cookie: `access_token=${await node.login('border')}` },
      });
      const missing = await node.request('GET', '/console/consignments/urn:uuid:00000000-0000-0000-0000-000000000001', {
        headers: { cookie: `access_token=${await node.login('border')}` },
      });
      expect(theirs.status).to.equal(404);
      expect(missing.status).to.equal(404);
      expect(theirs.headers.get('content-type')).to.match(/^text\/html/);
      expect(
        (await node.request('GET', '/console/policies', { headers: { cookie: `access_token=${await node.login('border')}` } })).status,
      ).to.equal(403);
    });

    it("refuses a state-changing form without the session's token or from another origin, changing nothing", async () => {
      const headers = { cookie: await cookie(), 'content-type': 'application/x-www-form-urlencoded' };
      const form = (fields: Record<string, string>) => new URLSearchParams({ role: 'borderAgency', countries: 'FR', ...fields }).toString();
      const token = csrfOf((await node.request('GET', '/console/policies', { headers: { cookie: headers.cookie } })).text);
      const before = (await node.as('forwarder', 'GET', `${API}/policies`)).body.length;
      expect((await node.request('POST', '/console/policies', { headers, rawBody: form({}) })).status).to.equal(403);
      expect(
        (await node.request('POST', '/console/policies', { headers, rawBody: form({ _csrf: 'x'.repeat(token.length) }) })).status,
      ).to.equal(403);
      // A request from another origin carries no session at all (the CORS layer drops its cookies): it is sent to log in.
      const crossOrigin = await node.request('POST', '/console/policies', {
        headers: { ...headers, origin: 'https://evil.example' },
        rawBody: form({ _csrf: token }),
      });
      expect(crossOrigin.status).to.equal(303);
      expect(crossOrigin.headers.get('location')).to.match(/^\/console\/login/);
      expect((await node.as('forwarder', 'GET', `${API}/policies`)).body.length).to.equal(before);
      const granted = await node.request('POST', '/console/policies', {
        headers: { ...headers, origin: node.url },
        rawBody: form({ _csrf: token }),
      });
      expect(granted.status).to.equal(303);
      expect((await node.as('forwarder', 'GET', `${API}/policies`)).body.length).to.equal(before + 1);
    });

    it('shows the change feed of the signed-in organisation, and only what it may read', async () => {
      const page = async (user: 'forwarder' | 'border' | 'douane') =>
        (await node.request('GET', '/console/changes', { headers: { cookie: `access_token=${await node.login(user)}` } })).text;
      const own = await page('forwarder');
      expect(own).to.include('id="changes"');
      expect(own).to.include(shipment.globalId);
      expect(own).to.include('document added');
      expect(await page('border')).to.not.include(shipment.globalId);
      // The policy granted to French border agencies above made it visible to Douane France.
      const douane = await page('douane');
      expect(douane).to.include(shipment.globalId);
      expect(douane).to.include('shared with you');
      const next = captured(/href="(\/console\/changes\?after=[^"]+)"/, own);
      expect((await node.request('GET', next.replace(/&amp;/g, '&'), { headers: { cookie: await cookie() } })).text).to.include(
        'Nothing more has changed',
      );
      expect((await node.request('GET', '/console/changes?after=nonsense', { headers: { cookie: await cookie() } })).status).to.equal(400);
    });

    it('sends only same-site paths back after login', async () => {
      const page = async (next: string) => (await node.request('GET', `/console/login?next=${encodeURIComponent(next)}`)).text;
      expect(await page('/console/policies')).to.include('data-next="/console/policies"');
      for (const hostile of ['//evil.example/', 'https://evil.example/', '/\\evil.example'])
        expect(await page(hostile)).to.include('data-next="/console"');
    });
  });
});
