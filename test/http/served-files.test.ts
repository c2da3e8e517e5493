import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import jsonld from 'jsonld';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';

const METRICS_TOKEN = 'metrics-token-0123456789';
/** Debian's promtool (package prometheus), installed by .ci/run. */
const PROMTOOL = '/usr/bin/promtool';

/** What a browser, a JSON-LD client and a Prometheus server fetch besides the API. */
describe('served files: favicon, JSON-LD contexts, metrics a Prometheus linter accepts', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start({ DATASPACE_METRICS_TOKEN: METRICS_TOKEN });
  });
  after(async () => {
    await node.stop();
  });

  it('serves /favicon.ico to anyone as an icon, not a 401 or 404 body', async () => {
    const res = await fetch(`${node.url}/favicon.ico`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('image/x-icon');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 4)]).to.deep.equal([0, 0, 1, 0]);
  });

  it('serves every bundled context at /contexts/<file> to anyone, and 404 JSON for another name', async () => {
    for (const name of [
      'unece-context-D23B.jsonld',
      'activitystreams.jsonld',
      'dataspace-service.jsonld',
      'dataspace-changes.jsonld',
      'unlocode-vocab-context.jsonld',
    ]) {
      const res = await node.request('GET', `/contexts/${name}`);
      expect(res.status, name).to.equal(200);
      expect(res.headers.get('content-type'), name).to.match(/^application\/ld\+json/);
      expect(res.headers.get('cache-control'), name).to.equal('public, max-age=86400');
      expect(res.body, name).to.have.property('@context');
    }
    const missing = await node.request('GET', '/contexts/other.jsonld');
    expect(missing.status).to.equal(404);
    expect(missing.body.name).to.equal('NotFound');
  });

  it('names its own D23B context in compacted JSON-LD, so a client reaching only the node expands the whole answer', async () => {
    const c = consignment({
      consignor: {
        type: 'TradeParty',
        name: 'Offline Exports',
        postalAddress: { type: 'TradeAddress', tradeAddressCountryId: 'unece:CountryId#GB' },
      },
    });
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
    const token = await node.login('forwarder');
    const at = `/supply-chain/data-space/consignments/${encodeURIComponent(c.globalId)}`;
    const compacted = await node.request('GET', at, { token, headers: { accept: 'application/ld+json' } });
    const fetched: string[] = [];
    const onlyTheNode = async (url: string) => {
      fetched.push(url);
      if (!url.startsWith(node.url)) throw new Error(`${url} is not on the node`);
      return { contextUrl: null, documentUrl: url, document: await (await fetch(url)).json() };
    };
    const nquads = (await jsonld.toRDF(JSON.parse(compacted.text), {
      format: 'application/n-quads',
      documentLoader: onlyTheNode as never,
    })) as unknown as string;
    expect(fetched).to.deep.equal([`${node.url}/contexts/unece-context-D23B.jsonld`]);
    const reference = (await node.request('GET', at, { token, headers: { accept: 'application/n-quads' } })).text;
    const lines = (text: string) =>
      text
        .split('\n')
        .filter((l) => l.length > 0 && !l.includes('_:'))
        .sort();
    expect(lines(nquads)).to.deep.equal(lines(reference));
    // The service terms (consignor is not in the D23B release) expanded too.
    expect(nquads).to.include('"Offline Exports"');
  });

  it('answers /metrics in a form `promtool check metrics` accepts', async () => {
    expect(existsSync(PROMTOOL), `${PROMTOOL} is missing: apt-get install prometheus (.ci/run does)`).to.equal(true);
    await node.as('forwarder', 'GET', '/supply-chain/data-space/consignments');
    const res = await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).to.equal(200);
    const text = await res.text();
    expect(text).to.include('dataspace_inbox_activities_total');
    const check = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(check.status, `${check.stdout}${check.stderr}`).to.equal(0);
  });
});
