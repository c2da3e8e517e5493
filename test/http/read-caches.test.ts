import { expect } from 'chai';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { activity, consignment, document, event, target } from '../helpers/payloads.js';
import { SignalReceiver } from '../helpers/signal-receiver.js';

type Json = Record<string, any>;

const BASE = '/supply-chain/data-space';
const POLICIES = `${BASE}/policies`;
const view = (id: string, scope?: string) => `${BASE}/consignments/${encodeURIComponent(id)}${scope ? `?scope=${scope}` : ''}`;

/**
 * Reads are answered from caches that follow every write (src/core/policy/change-clock.ts): each case reads
 * first, so the answer is cached, then writes, and checks the next read is the store's answer — never
 * the cached one, and never more than the reader may now see.
 */
describe('read caches never serve stale or over-broad answers', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  async function create(overrides: Json = {}): Promise<Json> {
    const c = consignment(overrides);
    const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    expect(res.status).to.equal(201);
    expect(res.body.status).to.equal('completed');
    return c;
  }

  async function add(c: Json, object: Json, user: UserName = 'forwarder'): Promise<void> {
    const res = await node.publish(user, activity('Add', USERS[user].org, object, target(c)));
    expect(res.status).to.equal(201);
    expect(res.body.status, JSON.stringify(res.body)).to.equal('completed');
  }

  async function listed(user: UserName): Promise<string[]> {
    return (await node.as(user, 'GET', `${BASE}/consignments?limit=500`)).body.map((c: Json) => c.globalId);
  }

  it('shows an event, a document and an update on the next read, with a new entity tag', async () => {
    const c = await create();
    const first = await node.as('forwarder', 'GET', view(c.globalId));
    expect(first.status).to.equal(200);
    expect(first.body.events).to.deep.equal([]);
    const etag = first.headers.get('etag');
    expect(etag).to.be.a('string');
    // fetch would add Cache-Control: no-cache beside If-None-Match (which asks for a full answer) unless told otherwise.
    const revalidate = { 'if-none-match': etag!, 'cache-control': 'max-age=0' };
    const again = await node.request('GET', view(c.globalId), { token: await node.login('forwarder'), headers: revalidate });
    expect(again.status).to.equal(304);

    await add(c, event('svc:despatched'));
    const afterEvent = await node.as('forwarder', 'GET', view(c.globalId));
    expect(afterEvent.body.events.map((e: Json) => e.typeCode)).to.deep.equal(['svc:despatched']);
    expect(afterEvent.body.status).to.equal('despatched');
    expect(afterEvent.headers.get('etag')).to.not.equal(etag);
    const stale = await node.request('GET', view(c.globalId), { token: await node.login('forwarder'), headers: revalidate });
    expect(stale.status).to.equal(200);

    await add(c, document('INV-7'));
    expect((await node.as('forwarder', 'GET', view(c.globalId))).body.documents.map((d: Json) => d.documentId)).to.deep.equal(['INV-7']);
    expect((await node.as('forwarder', 'GET', `${view(c.globalId)}/documents`)).body.map((d: Json) => d.documentRevision)).to.deep.equal([
      1,
    ]);
    await add(c, document('INV-7', { versionId: '2' }));
    const docs = (await node.as('forwarder', 'GET', `${view(c.globalId)}/documents`)).body;
    expect(docs.map((d: Json) => [d.documentRevision, d.history.length])).to.deep.equal([[2, 1]]);
    expect((await node.as('forwarder', 'GET', `${view(c.globalId)}/documents/INV-7?meta`)).body.documentRevision).to.equal(2);

    const updated = { ...c, summaryDescription: 'Gearboxes, repacked' };
    expect((await node.publish('forwarder', activity('Update', USERS.forwarder.org, updated))).body.status).to.equal('completed');
    const afterUpdate = (await node.as('forwarder', 'GET', view(c.identifier))).body;
    expect(afterUpdate.summaryDescription).to.equal('Gearboxes, repacked');
    expect(afterUpdate.systemEvents.map((e: Json) => e.typeCode)).to.deep.equal(['CREATE', 'ADD', 'ADD', 'ADD', 'UPDATE']);
  });

  it('follows an identifier that moves to another consignment', async () => {
    const first = await create();
    const old = first.identifier;
    expect((await node.as('forwarder', 'GET', view(old))).body.globalId).to.equal(first.globalId);
    const renamed = `${old}-R`;
    expect(
      (await node.publish('forwarder', activity('Update', USERS.forwarder.org, { ...first, identifier: renamed }))).body.status,
    ).to.equal('completed');
    expect((await node.as('forwarder', 'GET', view(old))).status).to.equal(404);
    expect((await node.as('forwarder', 'GET', view(renamed))).body.globalId).to.equal(first.globalId);
    const second = await create({ identifier: old });
    expect((await node.as('forwarder', 'GET', view(old))).body.globalId).to.equal(second.globalId);
  });

  it('grants and withdraws access at once: views, documents and lists', async () => {
    const c = await create();
    await add(c, document('BL-1'));
    expect((await node.as('border', 'GET', view(c.globalId))).status).to.equal(404);
    expect(await listed('border')).to.not.include(c.globalId);

    const policy = await node.as('forwarder', 'POST', POLICIES, { role: 'borderAgency', countries: ['GB'] });
    expect(policy.status).to.equal(201);
    const seen = await node.as('border', 'GET', view(c.globalId));
    expect(seen.status).to.equal(200);
    expect(seen.body.documents.map((d: Json) => d.documentId)).to.deep.equal(['BL-1']);
    expect(await listed('border')).to.include(c.globalId);
    expect((await node.as('border', 'GET', `${BASE}/documents?limit=500`)).body.map((d: Json) => d.consignmentId)).to.include(c.globalId);
    // The same view cached for the GB agency is never handed to the French one.
    expect((await node.as('douane', 'GET', view(c.globalId))).status).to.equal(404);
    expect(await listed('douane')).to.not.include(c.globalId);

    expect((await node.as('forwarder', 'DELETE', `${POLICIES}/${encodeURIComponent(policy.body.id)}`)).status).to.equal(204);
    expect((await node.as('border', 'GET', view(c.globalId))).status).to.equal(404);
    expect((await node.as('border', 'GET', `${view(c.globalId)}/documents`)).status).to.equal(404);
    expect(await listed('border')).to.not.include(c.globalId);
    expect((await node.as('border', 'GET', `${BASE}/documents?limit=500`)).body.map((d: Json) => d.consignmentId)).to.not.include(
      c.globalId,
    );
  });

  it('follows a route change for location operators', async () => {
    const policy = await node.as('forwarder', 'POST', POLICIES, { role: 'locationOperator', locations: ['GBFXT'] });
    const c = await create();
    expect((await node.as('port', 'GET', view(c.globalId))).status).to.equal(200);
    expect(await listed('port')).to.include(c.globalId);
    const rerouted = { ...c, loadingBaseportLocation: { type: 'LogisticsLocation', name: 'Southampton', UNLocode: 'GBSOU' } };
    expect((await node.publish('forwarder', activity('Update', USERS.forwarder.org, rerouted))).body.status).to.equal('completed');
    expect((await node.as('port', 'GET', view(c.globalId))).status).to.equal(404);
    expect(await listed('port')).to.not.include(c.globalId);
    await node.as('forwarder', 'DELETE', `${POLICIES}/${encodeURIComponent(policy.body.id)}`);
  });

  it("keeps each organisation's own and shared arrays apart", async () => {
    const policy = await node.as('forwarder', 'POST', POLICIES, { role: 'locationOperator', locations: ['GBFXT'] });
    const c = await create();
    const ownBefore = (await node.as('forwarder', 'GET', view(c.globalId, 'own'))).body;
    expect(ownBefore.events).to.deep.equal([]);
    await add(c, event('svc:locationOperatorMatch'), 'port');
    const forwarder = {
      own: (await node.as('forwarder', 'GET', view(c.globalId, 'own'))).body,
      shared: (await node.as('forwarder', 'GET', view(c.globalId, 'shared'))).body,
    };
    const port = {
      own: (await node.as('port', 'GET', view(c.globalId, 'own'))).body,
      shared: (await node.as('port', 'GET', view(c.globalId, 'shared'))).body,
    };
    expect(forwarder.own.events).to.deep.equal([]);
    expect(forwarder.shared.events.map((e: Json) => e.typeCode)).to.deep.equal(['svc:locationOperatorMatch']);
    expect(port.own.events.map((e: Json) => e.typeCode)).to.deep.equal(['svc:locationOperatorMatch']);
    expect(port.shared.events).to.deep.equal([]);
    await node.as('forwarder', 'DELETE', `${POLICIES}/${encodeURIComponent(policy.body.id)}`);
  });

  it('shows a signal delivery recorded after the view was read', async () => {
    const receiver = await SignalReceiver.start();
    try {
      expect((await node.as('douane', 'PUT', `${BASE}/notification-endpoint`, { url: receiver.url })).status).to.be.oneOf([200, 201]);
      const c = await create();
      const before = (await node.as('forwarder', 'GET', view(c.globalId))).body;
      await receiver.until(() => receiver.about(c.globalId).length > 0);
      const deadline = Date.now() + 10_000;
      let typeCodes: string[] = before.systemEvents.map((e: Json) => e.typeCode);
      while (!typeCodes.includes('SIGNAL_DELIVERED') && Date.now() < deadline) {
        await new Promise((ok) => setTimeout(ok, 20));
        typeCodes = (await node.as('forwarder', 'GET', view(c.globalId))).body.systemEvents.map((e: Json) => e.typeCode);
      }
      expect(typeCodes).to.include('SIGNAL_DELIVERED');
    } finally {
      await receiver.close();
    }
  });
});
