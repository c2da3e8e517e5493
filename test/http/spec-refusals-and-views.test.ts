import { expect } from 'chai';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, document, event, newGlobalId, target } from '../helpers/payloads.js';

const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;
type Json = Record<string, any>;

/** What a refusal tells: status, entry status, task status and error, with the named globalId masked. */
function told(res: { status: number; body: Json }, globalId: string): Json {
  const t = res.body.tasks?.[0];
  return {
    status: res.status,
    entry: res.body.status,
    task: t?.status,
    error: t?.error && { name: t.error.name, message: String(t.error.message).split(globalId).join('<globalId>') },
    keys: Object.keys(res.body).sort(),
  };
}

describe("spec fidelity: another organisation's consignment answers as one that does not exist (issues 33, 35)", () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  const theirs = async (): Promise<Json> => {
    const c = consignment();
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
    return c;
  };

  it('an Update naming it by globalId: the same status, name and message as a globalId no one uses, nothing changed', async () => {
    const c = await theirs();
    const update = { ...c, identifier: 'B-OWN-NONE', summaryDescription: 'taken over' };
    const real = await node.publish('otherForwarder', activity('Update', USERS.otherForwarder.org, update));
    const ghostId = newGlobalId();
    const ghost = await node.publish('otherForwarder', activity('Update', USERS.otherForwarder.org, { ...update, globalId: ghostId }));
    expect(told(real, c.globalId)).to.deep.equal(told(ghost, ghostId));
    expect(told(real, c.globalId)).to.include({ status: 201, entry: 'failed', task: 'failed' });
    expect(real.body.tasks[0].error.name).to.equal('NotFound');
    expect((await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body.summaryDescription).to.equal('Machine parts');
  });

  it('an Add of an event or a document to it: the same answer as to a consignment that does not exist', async () => {
    const c = await theirs();
    const ghost = { ...c, globalId: newGlobalId() };
    for (const object of [event('svc:despatched'), document('INV-X')]) {
      const real = await node.publish('otherForwarder', activity('Add', USERS.otherForwarder.org, object, target(c)));
      const none = await node.publish('otherForwarder', activity('Add', USERS.otherForwarder.org, object, target(ghost)));
      expect(told(real, c.globalId)).to.deep.equal(told(none, ghost.globalId));
      expect(real.body.tasks[0].error.name).to.equal('NotFound');
    }
    const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
    expect(view.events).to.deep.equal([]);
    expect(view.documents).to.deep.equal([]);
  });

  it("an Update naming it by globalId with the sender's own identifier updates the sender's own, as when the globalId names nothing", async () => {
    const c = await theirs();
    const own = consignment();
    await node.publish('otherForwarder', activity('Create', USERS.otherForwarder.org, own));
    const res = await node.publish(
      'otherForwarder',
      activity('Update', USERS.otherForwarder.org, { ...own, globalId: c.globalId, summaryDescription: 'mine' }),
    );
    expect(res.body.status).to.equal('completed');
    expect(res.body.warnings[0].message).to.contain(`No consignment has globalId ${c.globalId}`);
    expect((await node.as('otherForwarder', 'GET', consignmentPath(own.globalId))).body.summaryDescription).to.equal('mine');
    expect((await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body.summaryDescription).to.equal('Machine parts');
  });
});

describe('spec fidelity: typed fields of the read view (spec 2.9, issue 35)', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  it('leaves out an equipment identifier and a label it does not have, never null', async () => {
    const c = consignment({
      utilizedTransportEquipment: [
        {
          type: 'LogisticsTransportEquipment',
          specifiedTransportMeans: { type: 'LogisticsTransportMeans', transportMeansTypeCode: 'unece:TransportMeansTypeCodeList#3103' },
        },
        { type: 'LogisticsTransportEquipment', identifier: 'MSKU1234567' },
      ],
    });
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
    const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
    const [first, second] = view.resolvedTransportEquipment;
    expect(first).to.not.have.property('identifier');
    expect(first.transportMeansTypes[0]).to.include({ code: '3103' }).and.to.have.property('label').that.is.a('string');
    expect(second).to.deep.equal({ identifier: 'MSKU1234567', transportMeansTypes: [] });
    expect(JSON.stringify(view)).to.not.contain('null');
  });

  it('gives SystemEvent details as a map of name to object ({id} or {value}), as spec 2.9 types them', async () => {
    const c = consignment();
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)));
    const { systemEvents } = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
    expect(systemEvents.map((e: any) => e.typeCode)).to.include.members(['CREATE', 'ADD']);
    for (const e of systemEvents) {
      for (const part of ['source', 'object', 'target']) {
        expect(e[part]).to.include.keys('id', 'type', 'detail');
        for (const [name, value] of Object.entries(e[part].detail as Json)) {
          expect(value, `${e.typeCode} ${part}.detail.${name}`).to.be.an('object');
          expect(Object.keys(value as Json).length === 1 && ('id' in (value as Json) || 'value' in (value as Json)), name).to.equal(true);
        }
      }
    }
    const create = systemEvents.find((e: any) => e.typeCode === 'CREATE');
    expect(create.target.detail.identifier).to.deep.equal({ value: c.identifier });
    expect(create.target.detail.activity.id).to.match(/^urn:uuid:/);
    expect(create.source.detail.role).to.deep.equal({ value: 'freightForwarder' });
  });
});

describe('spec fidelity: login with a malformed email (spec 4.1, 7.2)', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  it('answers 400 for an email that is not an address, 401 for a wrong one', async () => {
    for (const email of ['not-an-email', 'two@@example.org', 'a b@example.org', '@example.org']) {
      const res = await node.request('POST', '/authentication/login', { body: { email, password: 'whatever-password' } });
      expect(res.status, email).to.equal(400);
      expect(res.body.name).to.equal('BadRequest');
    }
    const wrong = await node.request('POST', '/authentication/login', {
      body: { email: 'nobody@example.org', password: 'whatever-password' },
    });
    expect(wrong.status).to.equal(401);
    expect(wrong.body.name).to.equal('UnauthorizedError');
  });
});
