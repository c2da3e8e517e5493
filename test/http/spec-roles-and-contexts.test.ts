import { expect } from 'chai';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { activity, AS_CONTEXT, consignment, D23B, document, event, target } from '../helpers/payloads.js';
import { nth } from '../helpers/present.js';

const VALIDATE = '/supply-chain/data-space/validate';
type Json = Record<string, any>;

/** Every quad in every graph: a refused activity must leave this unchanged (no data, log entry or outbox entry). */
async function quadCount(node: TestNode): Promise<number> {
  const row = nth(await node.node.store.select('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }'), 0);
  return Number(row.get('n')!.value);
}

describe('spec fidelity: roles on publishing (spec 1.2, 6 rule 1)', () => {
  let node: TestNode;
  let c: Json;
  before(async () => {
    node = await TestNode.start();
    c = consignment();
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
    // A location operator's match needs a policy that lets it read the consignment (issue 13).
    expect(
      (await node.as('forwarder', 'POST', '/supply-chain/data-space/policies', { role: 'locationOperator', locations: ['GBFXT', 'NLRTM'] }))
        .status,
    ).to.equal(201);
    // The change journal writes the policy change's entry just after the answer: counted before the rows.
    await node.node.settled();
  });
  after(async () => {
    await node.stop();
  });

  // One row per role × activity; the expected status is the spec's answer.
  const rows: [UserName, string, () => Json, number][] = [
    ['border', 'Create', () => consignment(), 403],
    ['border', 'Update', () => ({ ...c }), 403],
    ['border', 'Add event', () => event('svc:despatched'), 403],
    ['border', 'Add document', () => document('INV-B'), 403],
    ['border', 'Add operator match', () => event('svc:locationOperatorMatch'), 403],
    ['port', 'Create', () => consignment(), 403],
    ['port', 'Update', () => ({ ...c }), 403],
    ['port', 'Add event', () => event('svc:carrierBooking'), 403],
    ['port', 'Add document', () => document('INV-P'), 403],
    ['forwarder', 'Add operator match', () => event('svc:locationOperatorMatch'), 403],
  ];
  for (const [user, what, object, status] of rows) {
    it(`${user} sending ${what} gets ${status}, with nothing stored and no signal`, async () => {
      const type = what.startsWith('Add') ? 'Add' : (what as 'Create' | 'Update');
      const body = activity(type, USERS[user].org, object(), type === 'Add' ? target(c) : undefined);
      const before = await quadCount(node);
      const res = await node.publish(user, body);
      expect(res.status, res.text).to.equal(status);
      expect(res.body).to.have.keys('name', 'message');
      expect(await quadCount(node)).to.equal(before);
    });
  }

  it("refuses a role before looking at the payload: a border agency's malformed object is still 403", async () => {
    const res = await node.publish(
      'border',
      activity('Create', USERS.border.org, { '@context': D23B, type: 'Consignment', identifier: 42 }),
    );
    expect(res.status).to.equal(403);
  });

  it('still accepts what each role may send', async () => {
    expect(
      (await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)))).body.status,
    ).to.equal('completed');
    expect(
      (await node.publish('port', activity('Add', USERS.port.org, event('svc:locationOperatorMatch'), target(c)))).body.status,
    ).to.equal('completed');
  });
});

describe('spec fidelity: @context and field types (spec 2, 7.1)', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  it('answers 400 naming @context when the activity or its object has none', async () => {
    const noActivityContext = activity('Create', USERS.forwarder.org, consignment());
    delete noActivityContext['@context'];
    const objectWithout = consignment();
    delete objectWithout['@context'];
    for (const body of [noActivityContext, activity('Create', USERS.forwarder.org, objectWithout)]) {
      const before = await quadCount(node);
      const res = await node.publish('forwarder', body);
      expect(res.status, res.text).to.equal(400);
      expect(res.body.message).to.contain('@context');
      expect(await quadCount(node)).to.equal(before);
    }
    const bare = consignment();
    delete bare['@context'];
    const res = await node.as('forwarder', 'POST', VALIDATE, bare);
    expect(res.status).to.equal(400);
    expect(res.body.message).to.contain('@context');
  });

  const refused: [string, Json, string][] = [
    [
      'an inline context object beside D23B',
      { '@context': [D23B, { colour: 'http://example.org/colour' }], colour: 'red' },
      'inline context object',
    ],
    ['an @vocab', { '@context': [D23B, { '@vocab': 'http://example.org/' }], colour: 'red' }, '@vocab'],
    ['an @import', { '@context': [D23B, { '@version': 1.1, '@import': D23B }] }, '@import'],
    [
      'an inline context on a nested node',
      { consignor: { '@context': { colour: 'http://example.org/colour' }, type: 'TradeParty', name: 'x', colour: 'red' } },
      'consignor.@context',
    ],
  ];
  for (const [what, overrides, named] of refused) {
    it(`refuses ${what} with 422 naming the entry, on the inbox and on /validate`, async () => {
      const before = await quadCount(node);
      const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment(overrides)));
      expect(res.status, res.text).to.equal(422);
      expect(res.body.message).to.contain(named);
      expect(await quadCount(node)).to.equal(before);
      const validated = await node.as('forwarder', 'POST', VALIDATE, consignment(overrides));
      expect(validated.status).to.equal(200);
      expect(validated.body.conforms).to.equal(false);
      expect(JSON.stringify(validated.body.results)).to.contain(named);
    });
  }

  it('refuses an inline context at the activity too', async () => {
    const res = await node.publish('forwarder', {
      ...activity('Create', USERS.forwarder.org, consignment()),
      '@context': [AS_CONTEXT, { colour: 'http://example.org/colour' }],
    });
    expect(res.status).to.equal(422);
    expect(res.body.message).to.contain('@context[1]');
  });

  const numbers: [string, Json, string][] = [
    ['identifier: 42', { identifier: 42 }, 'object.identifier'],
    ['globalId: true', { globalId: true }, 'object.globalId'],
    ['identifier as a value object holding a number', { identifier: { '@value': 7 } }, 'object.identifier'],
    [
      'an included consignment identifier: 3',
      { includedConsignment: [{ type: 'Consignment', identifier: 3 }] },
      'object.includedConsignment[0].identifier',
    ],
  ];
  for (const [what, overrides, field] of numbers) {
    it(`refuses ${what} with 422 naming ${field}`, async () => {
      const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment(overrides)));
      expect(res.status, res.text).to.equal(422);
      expect(res.body.message).to.contain(field);
    });
  }

  it('refuses a numeric target identifier with 422', async () => {
    const c = consignment();
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    const res = await node.publish(
      'forwarder',
      activity('Add', USERS.forwarder.org, event('svc:despatched'), { ...target(c), identifier: 5 }),
    );
    expect([400, 422]).to.include(res.status);
  });
});
