import { expect } from 'chai';
import jsonld from 'jsonld';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, AS_CONTEXT, consignment, document, event, target } from '../helpers/payloads.js';
import { documentLoader } from '../../src/core/rdf/document-loader.js';

const CHANGES = '/supply-chain/data-space/changes';
const SVC = 'https://w3id.org/supply-chain-dataspace/ns#';
const AS = 'https://www.w3.org/ns/activitystreams#';
/** Compacted keys whose IRI has another local name. */
const RENAMED: Record<string, string> = { orderedItems: 'items', cursor: 'feedCursor', partial: 'partialPage' };

const pathOf = (url: string): string => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** Every property of an expanded document, at any depth. */
function propertiesOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) propertiesOf(v, into);
  else if (value !== null && typeof value === 'object')
    for (const [key, v] of Object.entries(value)) {
      into.add(key);
      propertiesOf(v, into);
    }
  return into;
}

/** Every key of a compacted document, at any depth, but `@context`. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, into);
  else if (value !== null && typeof value === 'object')
    for (const [key, v] of Object.entries(value)) {
      if (key === '@context') continue;
      into.add(key);
      keysOf(v, into);
    }
  return into;
}

describe('change feed as ActivityStreams readers read it', function () {
  this.timeout(60_000);
  let node: TestNode;
  let token: string;
  const contextsFetched: string[] = [];

  /** A reader that reaches only the node: the node's own context over HTTP, ActivityStreams as bundled. */
  const loader = async (url: string) => {
    if (!url.startsWith(node.url)) return documentLoader(url);
    contextsFetched.push(url);
    const res = await fetch(url);
    expect(res.status, url).to.equal(200);
    return { contextUrl: null, documentUrl: url, document: await res.json() };
  };
  const read = (path: string, accept?: string) => node.request('GET', path, { token, headers: accept === undefined ? {} : { accept } });

  before(async () => {
    node = await TestNode.start();
    token = await node.login('forwarder');
    const c = consignment();
    for (const a of [
      activity('Create', USERS.forwarder.org, c),
      activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)),
      activity('Add', USERS.forwarder.org, document(`INV-${Date.now()}`), target(c)),
    ])
      expect((await node.publish('forwarder', a)).body.status).to.equal('completed');
  });
  after(async () => {
    await node?.stop();
  });

  it('answers application/activity+json, ld+json with the ActivityStreams profile, or json, by Accept', async () => {
    const cases: [string | undefined, RegExp][] = [
      [undefined, /^application\/activity\+json; charset=utf-8$/],
      ['*/*', /^application\/activity\+json/],
      ['application/activity+json', /^application\/activity\+json/],
      [`application/ld+json; profile="${AS_CONTEXT}"`, /^application\/ld\+json; profile="https:\/\/www\.w3\.org\/ns\/activitystreams"/],
      ['application/ld+json', /^application\/ld\+json/],
      ['application/json', /^application\/json/],
    ];
    for (const [accept, type] of cases) {
      const res = await read(CHANGES, accept);
      expect(res.status, String(accept)).to.equal(200);
      expect(res.headers.get('content-type'), String(accept)).to.match(type);
      expect(res.headers.get('vary') ?? '').to.match(/Accept/i);
      expect(res.body.type).to.equal('OrderedCollection');
    }
    const refused = await read(CHANGES, 'text/csv');
    expect(refused.status).to.equal(406);
    expect(refused.body.name).to.equal('NotAcceptable');
    expect(refused.body.message).to.include('application/activity+json');
  });

  it('carries ?limit on the collection into first and last, and the pages after them', async () => {
    const root = await read(`${CHANGES}?limit=2`);
    expect(new URL(root.body.first).searchParams.get('limit')).to.equal('2');
    expect(new URL(root.body.last).searchParams.get('limit')).to.equal('2');
    const first = await read(pathOf(root.body.first));
    expect(first.body.orderedItems).to.have.length(2);
    expect(new URL(first.body.next).searchParams.get('limit')).to.equal('2');
    const plain = await read(CHANGES);
    expect(new URL(plain.body.first).searchParams.has('limit')).to.equal(false);
  });

  it("expands with jsonld.js (safe mode) keeping every field, the node's own terms as IRIs", async () => {
    const root = await read(CHANGES, 'application/ld+json');
    const page = await read(pathOf(root.body.first), 'application/ld+json');
    const items = page.body.orderedItems as Record<string, unknown>[];
    expect(items.map((i) => i.change)).to.include.members(['consignment-created', 'event-added', 'document-added']);
    for (const doc of [root.body, page.body]) {
      // safe mode makes jsonld.js throw where it would drop a term or a value.
      const expanded = await jsonld.expand(doc, { documentLoader: loader, safe: true } as never);
      const properties = propertiesOf(expanded);
      for (const p of properties) expect(p, `${p} is a keyword or an absolute IRI, not a blank-node term`).to.match(/^(@\w+|https?:\/\/)/);
      // Each compacted key turns into a property of its own name (or the IRI its term names).
      for (const key of keysOf(doc)) {
        if (key === 'id' || key === 'type') continue;
        const local = RENAMED[key] ?? key;
        expect(
          [...properties].some((p) => p.endsWith(`#${local}`)),
          `${key} survives expansion`,
        ).to.equal(true);
      }
    }
    const expanded = (await jsonld.expand(page.body, { documentLoader: loader, safe: true } as never)) as unknown as any[];
    const list = expanded[0][`${AS}items`][0]['@list'] as any[];
    const find = (change: string) => list.find((i) => i[`${SVC}change`][0]['@value'] === change);
    expect(find('event-added')[`${SVC}typeCode`][0]['@value']).to.equal('svc:despatched');
    expect(find('document-added')[`${SVC}documentRevision`][0]).to.deep.equal({
      '@value': 1,
      '@type': 'http://www.w3.org/2001/XMLSchema#integer',
    });
    expect(find('consignment-created')[`${SVC}feedCursor`][0]['@value']).to.be.a('string');
    expect(find('consignment-created')[`${AS}object`][0]['@type']).to.deep.equal(['https://vocabulary.uncefact.org/Consignment']);
    expect(contextsFetched.some((u) => u.endsWith('/contexts/dataspace-changes.jsonld'))).to.equal(true);
  });
});
