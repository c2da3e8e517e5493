import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, D23B } from '../helpers/payloads.js';

describe('hostile input never hurts the node', () => {
  let node: TestNode;
  let contextServer: Server;
  let contextHits = 0;
  let contextUrl: string;
  before(async () => {
    node = await TestNode.start();
    contextServer = createServer((_req, res) => {
      contextHits++;
      res.setHeader('content-type', 'application/ld+json');
      res.end('{"@context": {"x": "urn:x:"}}');
    });
    await new Promise<void>((ok) => contextServer.listen(0, '127.0.0.1', () => ok()));
    contextUrl = `http://127.0.0.1:${(contextServer.address() as AddressInfo).port}/context.jsonld`;
  });
  after(async () => {
    await node.stop();
    await new Promise((ok) => contextServer.close(ok));
  });

  const cases: [string, () => unknown, number[]][] = [
    [
      'a huge array',
      () => activity('Create', USERS.forwarder.org, consignment({ includedConsignmentItem: Array.from({ length: 60_000 }, () => 1) })),
      [413],
    ],
    [
      '@graph inside the object',
      () =>
        activity('Create', USERS.forwarder.org, {
          ...consignment(),
          '@graph': [{ '@id': 'urn:x:1', 'https://vocabulary.uncefact.org/name': 'hidden' }],
        }),
      [422],
    ],
    [
      '@reverse inside the object',
      () =>
        activity('Create', USERS.forwarder.org, {
          ...consignment(),
          '@reverse': {
            'https://vocabulary.uncefact.org/includedConsignment': { '@id': 'urn:x:parent', 'https://vocabulary.uncefact.org/name': 'x' },
          },
        }),
      [422],
    ],
    [
      '@included inside the object',
      () =>
        activity('Create', USERS.forwarder.org, {
          ...consignment(),
          '@included': [{ '@id': 'urn:x:2', 'https://vocabulary.uncefact.org/name': 'x' }],
        }),
      [422],
    ],
    [
      'a remote @context in the object',
      () => activity('Create', USERS.forwarder.org, consignment({ '@context': [D23B, contextUrl] })),
      [422],
    ],
    [
      '@import of a remote context',
      () => activity('Create', USERS.forwarder.org, consignment({ '@context': [D23B, { '@version': 1.1, '@import': contextUrl }] })),
      [422],
    ],
    [
      'a top-level @graph of two activities',
      () => ({
        '@context': 'https://www.w3.org/ns/activitystreams',
        type: 'Create',
        actor: {},
        object: {},
        '@graph': [activity('Create', USERS.forwarder.org, consignment()), activity('Create', USERS.forwarder.org, consignment())],
      }),
      [400, 422],
    ],
    [
      '@id values that are not IRIs',
      () => activity('Create', USERS.forwarder.org, consignment({ consignor: { '@id': 'not an iri', name: 'x' } })),
      [422],
    ],
    [
      'an @id with two fragments',
      () =>
        activity(
          'Create',
          USERS.forwarder.org,
          consignment({ consignor: { '@id': 'http://example.org/x#a#b', type: 'TradeParty', name: 'x' } }),
        ),
      [422],
    ],
    [
      'an @id with characters IRIs forbid',
      () =>
        activity(
          'Create',
          USERS.forwarder.org,
          consignment({ consignor: { '@id': 'http://invalid/<>/x', type: 'TradeParty', name: 'x' } }),
        ),
      [422],
    ],
    [
      'a value object with several @type values',
      () =>
        activity(
          'Create',
          USERS.forwarder.org,
          consignment({ summaryDescription: { '@value': 'x', '@type': ['http://ex/a', 'http://ex/b'] } }),
        ),
      [422],
    ],
    [
      'a property-scoped remote context',
      () =>
        activity(
          'Create',
          USERS.forwarder.org,
          consignment({
            '@context': [D23B, { consignor: { '@id': 'https://w3id.org/supply-chain-dataspace/ns#consignor', '@context': contextUrl } }],
          }),
        ),
      [422],
    ],
    ['a null actor', () => ({ type: 'Create', actor: null, object: consignment() }), [400]],
  ];

  for (const [name, body, statuses] of cases) {
    it(`answers ${statuses.join('/')} with an error body for ${name}, quickly, and keeps serving`, async () => {
      const started = Date.now();
      const res = await node.publish('forwarder', body());
      expect(statuses, `${res.status} ${res.text.slice(0, 300)}`).to.include(res.status);
      expect(res.body).to.include.keys('name', 'message');
      expect(Date.now() - started).to.be.below(2000);
      const health = await node.as('forwarder', 'GET', '/supply-chain/data-space/consignments?limit=1');
      expect(health.status).to.equal(200);
    });
  }

  it('answers 400 for JSON nested 50,000 deep, quickly, and keeps serving', async () => {
    const depth = 50_000;
    const raw = `{"type":"Create","actor":{},"object":${'{"consignor":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const started = Date.now();
    const res = await node.request('POST', '/supply-chain/data-space/inbox', {
      rawBody: raw,
      token: await node.login('forwarder'),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).to.equal(400);
    expect(res.body).to.have.keys('name', 'message');
    expect(Date.now() - started).to.be.below(2000);
    expect((await node.as('forwarder', 'GET', '/supply-chain/data-space/consignments?limit=1')).status).to.equal(200);
  });

  it('never fetched a context from the network', () => {
    expect(contextHits).to.equal(0);
  });

  it('stored nothing from any of them', async () => {
    const list = await node.as('forwarder', 'GET', '/supply-chain/data-space/consignments?limit=500');
    expect(list.body).to.deep.equal([]);
  });
});
