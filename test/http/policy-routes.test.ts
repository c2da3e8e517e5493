import { expect } from 'chai';
import n3 from 'n3';
import { TestNode, type UserName } from '../helpers/test-node.js';
import { newGlobalId } from '../helpers/payloads.js';

const POLICIES = '/supply-chain/data-space/policies';

describe('data-sharing policies over HTTP', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  it('registers a policy with 201, lists it for its owner only, and withdraws it with 204', async () => {
    const created = await node.as('forwarder', 'POST', POLICIES, { role: 'borderAgency', countries: ['GB', 'FR', 'GB'] });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ owner: 'did:web:forwarder.example', role: 'borderAgency' });
    expect(created.body.id).to.match(/^urn:dataspace:policy:/);
    expect(created.body.countries).to.deep.equal(['GB', 'FR']);
    expect(created.body.locations).to.deep.equal([]);
    expect(created.headers.get('location')).to.equal(created.body.href);

    const mine = await node.as('forwarder', 'GET', POLICIES);
    expect(mine.status).to.equal(200);
    const listed = mine.body.find((p: { id: string }) => p.id === created.body.id);
    expect(listed).to.deep.include({ role: 'borderAgency', countries: ['FR', 'GB'], consignments: [] });
    const one = await node.as('forwarder', 'GET', `${POLICIES}/${encodeURIComponent(created.body.id)}`);
    expect(one.status).to.equal(200);
    expect(one.body.id).to.equal(created.body.id);

    const theirs = await node.as('otherForwarder', 'GET', POLICIES);
    expect(theirs.body.map((p: { id: string }) => p.id)).to.not.include(created.body.id);
    expect((await node.as('otherForwarder', 'DELETE', `${POLICIES}/${encodeURIComponent(created.body.id)}`)).status).to.equal(404);

    const deleted = await node.as('forwarder', 'DELETE', `${POLICIES}/${encodeURIComponent(created.body.id)}`);
    expect(deleted.status).to.equal(204);
    expect(deleted.text).to.equal('');
    expect((await node.as('forwarder', 'GET', POLICIES)).body.map((p: { id: string }) => p.id)).to.not.include(created.body.id);
    expect((await node.as('forwarder', 'DELETE', `${POLICIES}/${encodeURIComponent(created.body.id)}`)).status).to.equal(404);
  });

  it("exports the caller's policies as ODRL in Turtle and JSON-LD, nobody else's", async () => {
    const mine = await node.as('forwarder', 'POST', POLICIES, { role: 'locationOperator', locations: ['NLRTM'] });
    const theirs = await node.as('otherForwarder', 'POST', POLICIES, { role: 'borderAgency', countries: ['DE'] });
    const token = await node.login('forwarder');
    const turtle = await node.request('GET', POLICIES, { token, headers: { accept: 'text/turtle' } });
    expect(turtle.status).to.equal(200);
    expect(turtle.headers.get('content-type')).to.match(/^text\/turtle/);
    const quads = new n3.Parser({ format: 'text/turtle' }).parse(turtle.text);
    const ODRL = 'http://www.w3.org/ns/odrl/2/';
    expect(quads.some((q) => q.subject.value === mine.body.id && q.object.value === `${ODRL}Set`)).to.equal(true);
    expect(quads.some((q) => q.predicate.value === `${ODRL}action` && q.object.value === `${ODRL}read`)).to.equal(true);
    expect(quads.some((q) => q.object.value === 'NLRTM')).to.equal(true);
    expect(turtle.text).to.not.include(theirs.body.id);
    expect(turtle.text).to.not.include('did:web:other-forwarder.example');
    const ld = await node.request('GET', POLICIES, { token, headers: { accept: 'application/ld+json' } });
    expect(ld.status).to.equal(200);
    expect(JSON.stringify(ld.body)).to.include(mine.body.id);
  });

  it('takes the bare uuid of a policy id in the path', async () => {
    const created = await node.as('forwarder', 'POST', POLICIES, {
      role: 'locationOperator',
      locations: ['GBFXT'],
      consignments: [newGlobalId()],
    });
    expect(created.status).to.equal(201);
    const uuid = created.body.id.slice('urn:dataspace:policy:'.length);
    expect((await node.as('forwarder', 'GET', `${POLICIES}/${uuid}`)).body.id).to.equal(created.body.id);
    expect((await node.as('forwarder', 'DELETE', `${POLICIES}/${uuid}`)).status).to.equal(204);
  });

  const others: UserName[] = ['border', 'port'];
  for (const user of others) {
    it(`refuses ${user} (not a freight forwarder) with 403 on every method`, async () => {
      for (const [method, path, body] of [
        ['POST', POLICIES, { role: 'borderAgency', countries: ['GB'] }],
        ['GET', POLICIES],
        ['DELETE', `${POLICIES}/x`],
      ] as const) {
        const res = await node.as(user, method, path, body);
        expect(res.status, `${method} ${path}`).to.equal(403);
        expect(res.body).to.have.keys('name', 'message');
      }
    });
  }

  const malformed: [string, unknown][] = [
    ['not an object', ['borderAgency']],
    ['no role', { countries: ['GB'] }],
    ['an unknown role', { role: 'freightForwarder', countries: ['GB'] }],
    ['a border agency without countries', { role: 'borderAgency' }],
    ['a border agency with locations', { role: 'borderAgency', countries: ['GB'], locations: ['GBFXT'] }],
    ['a location operator without locations', { role: 'locationOperator', countries: ['GB'] }],
    ['a lowercase country', { role: 'borderAgency', countries: ['gb'] }],
    ['a malformed UN/LOCODE', { role: 'locationOperator', locations: ['Felixstowe'] }],
    ['countries as a string', { role: 'borderAgency', countries: 'GB' }],
    ['a consignment that is not a urn:uuid globalId', { role: 'borderAgency', countries: ['GB'], consignments: ['REF-1'] }],
    ['an empty consignments list', { role: 'borderAgency', countries: ['GB'], consignments: [] }],
    ['an unknown field', { role: 'borderAgency', countries: ['GB'], country: 'GB' }],
  ];
  for (const [what, body] of malformed) {
    it(`answers 400 for ${what} and stores nothing`, async () => {
      const before = (await node.as('forwarder', 'GET', POLICIES)).body.length;
      const res = await node.as('forwarder', 'POST', POLICIES, body);
      expect(res.status).to.equal(400);
      expect(res.body).to.have.keys('name', 'message');
      expect((await node.as('forwarder', 'GET', POLICIES)).body.length).to.equal(before);
    });
  }

  it('answers 415 for a body that is not JSON', async () => {
    const token = await node.login('forwarder');
    const res = await node.request('POST', POLICIES, {
      rawBody: 'role=borderAgency',
      token,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).to.equal(415);
  });

  it('keeps policies across a restart', async () => {
    const created = await node.as('forwarder', 'POST', POLICIES, { role: 'borderAgency', countries: ['NL'] });
    await node.stop(false);
    node = await TestNode.start({}, node.config.dataDir);
    const mine = await node.as('forwarder', 'GET', POLICIES);
    expect(mine.body.map((p: { id: string }) => p.id)).to.include(created.body.id);
  });
});
