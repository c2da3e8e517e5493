import { expect } from 'chai';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { activity, consignment, document, event, newGlobalId, target } from '../helpers/payloads.js';
import { pause, SignalReceiver, signatureValid, testSecret } from '../helpers/signal-receiver.js';
import { nth, only } from '../helpers/present.js';

const ENDPOINT = '/supply-chain/data-space/notification-endpoint';
const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;
const deliveriesPath = (id: string) => `${consignmentPath(id)}/deliveries`;

/** Every organisation that could receive a signal, with its own receiver and secret. */
const RECEIVERS = ['border', 'douane', 'port', 'rotterdam', 'forwarder', 'otherForwarder'] as const;
type ReceiverName = (typeof RECEIVERS)[number];

/** Polls the owner's deliveries until `count` deliveries exist and none is pending. */
export async function settled(node: TestNode, user: UserName, globalId: string, count: number, timeoutMs = 15_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await node.as(user, 'GET', deliveriesPath(globalId));
    expect(res.status).to.equal(200);
    if (res.body.length === count && res.body.every((d: any) => d.state !== 'pending')) return res.body;
    if (Date.now() > deadline) throw new Error(`deliveries did not settle at ${count}: ${JSON.stringify(res.body)}`);
    await pause(20);
  }
}

describe('signals: triggers, payload and signature', () => {
  let node: TestNode;
  const receivers = {} as Record<ReceiverName, SignalReceiver>;
  const secrets = Object.fromEntries(RECEIVERS.map((n) => [n, testSecret(n)])) as Record<ReceiverName, string>;

  const signalsAbout = (name: ReceiverName, globalId: string): any[] => receivers[name].about(globalId).map((r) => r.json);
  const create = async (c: Record<string, any>) => {
    const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    expect(res.body.status, JSON.stringify(res.body)).to.equal('completed');
    return res;
  };
  const add = (c: Record<string, any>, object: Record<string, any>, user: UserName = 'forwarder') =>
    node.publish(user, activity('Add', USERS[user].org, object, target(c)));

  before(async () => {
    node = await TestNode.start({ DATASPACE_NOTIFY_RETRY_MS: '20' });
    for (const name of RECEIVERS) {
      receivers[name] = await SignalReceiver.start();
      const res = await node.as(name, 'PUT', ENDPOINT, { url: receivers[name].url, secret: secrets[name] });
      expect(res.status, res.text).to.equal(200);
    }
  });
  after(async () => {
    await node.stop();
    await Promise.all(Object.values(receivers).map((r) => r.close()));
  });

  it('sends a signed Pre-Notification to every border agency when a consignment is created', async () => {
    const c = consignment();
    const before = Date.now();
    await create(c);
    const deliveries = await settled(node, 'forwarder', c.globalId, 2);
    expect(deliveries.map((d) => d.receiver).sort()).to.deep.equal([USERS.border.org, USERS.douane.org].sort());
    for (const name of ['border', 'douane'] as const) {
      const received = only(receivers[name].about(c.globalId), name);
      expect(received.method).to.equal('POST');
      expect(received.headers['content-type']).to.match(/^application\/json/);
      const signal = received.json;
      expect(signal).to.have.keys('id', 'type', 'published', 'consignment');
      expect(signal.id).to.match(/^urn:uuid:[0-9a-f-]{36}$/);
      expect(signal.type).to.equal('PreNotification');
      expect(Date.parse(signal.published)).to.be.within(before - 1000, Date.now());
      expect(signal.consignment).to.deep.equal({
        globalId: c.globalId,
        originRecordID: c.identifier,
        href: `${node.url}${consignmentPath(c.globalId)}`,
      });
      expect(received.headers['webhook-id']).to.equal(signal.id);
      expect(Number(received.headers['webhook-timestamp'])).to.be.within(Math.floor(before / 1000) - 1, Math.ceil(Date.now() / 1000));
      expect(signatureValid(secrets[name], received), 'signature').to.equal(true);
      // The signature covers the body: another key, or a changed body, does not verify.
      expect(signatureValid(secrets.port, received)).to.equal(false);
      expect(signatureValid(secrets[name], { ...received, body: received.body.replace(c.identifier, 'FORGED') })).to.equal(false);
    }
    for (const name of ['port', 'rotterdam', 'forwarder', 'otherForwarder'] as const)
      expect(signalsAbout(name, c.globalId), name).to.deep.equal([]);
  });

  it('sends a Pre-Notification with the current identifier when a consignment is updated', async () => {
    const c = consignment();
    await create(c);
    const res = await node.publish('forwarder', activity('Update', USERS.forwarder.org, { ...c, identifier: `${c.identifier}-B` }));
    expect(res.body.status).to.equal('completed');
    await settled(node, 'forwarder', c.globalId, 4);
    for (const name of ['border', 'douane'] as const) {
      const signals = signalsAbout(name, c.globalId);
      expect(signals.map((s) => s.type)).to.deep.equal(['PreNotification', 'PreNotification']);
      expect(signals.map((s) => s.consignment.originRecordID)).to.deep.equal([c.identifier, `${c.identifier}-B`]);
      expect(signals[0].id).to.not.equal(signals[1].id);
    }
  });

  it('sends a Despatch after the Pre-Notification when svc:despatched is added', async () => {
    const c = consignment();
    await create(c);
    const res = await add(c, event('svc:despatched'));
    expect(res.body.status).to.equal('completed');
    await settled(node, 'forwarder', c.globalId, 4);
    for (const name of ['border', 'douane'] as const) {
      const signals = signalsAbout(name, c.globalId);
      expect(signals.map((s) => s.type)).to.deep.equal(['PreNotification', 'Despatch']);
      expect(signals[1].consignment).to.deep.equal({
        globalId: c.globalId,
        originRecordID: c.identifier,
        href: `${node.url}${consignmentPath(c.globalId)}`,
      });
      expect(signatureValid(secrets[name], nth(receivers[name].about(c.globalId), 1))).to.equal(true);
    }
    for (const name of ['port', 'rotterdam'] as const) expect(signalsAbout(name, c.globalId), name).to.deep.equal([]);
  });

  it('sends nothing for other events and for documents', async () => {
    const c = consignment();
    await create(c);
    for (const code of [
      'svc:preNotification',
      'svc:issuedDocument',
      'svc:onwardSharing',
      'svc:atLocationOfExit',
      'svc:arrivedAtFinalDestination',
    ]) {
      expect((await add(c, event(code))).body.status, code).to.equal('completed');
    }
    expect((await add(c, document('INV-9'))).body.status).to.equal('completed');
    const deliveries = await settled(node, 'forwarder', c.globalId, 2);
    expect(deliveries.every((d) => d.type === 'PreNotification')).to.equal(true);
  });

  it('notifies each location operator on the route of a carrier booking, and sets the carrier on the consignment', async () => {
    const c = consignment();
    await create(c);
    const booking = event('svc:carrierBooking', {
      carrierParty: { type: 'TradeParty', name: 'Channel Lines' },
      carrierAssignedId: 'BKG-777',
    });
    expect((await add(c, booking)).body.status).to.equal('completed');
    const deliveries = await settled(node, 'forwarder', c.globalId, 4);
    const notified = deliveries
      .filter((d) => d.type === 'CarrierBookingNotification')
      .map((d) => d.receiver)
      .sort();
    expect(notified).to.deep.equal([USERS.port.org, USERS.rotterdam.org].sort());
    for (const name of ['port', 'rotterdam'] as const) {
      const received = nth(receivers[name].about(c.globalId), 0);
      expect(received.json.type).to.equal('CarrierBookingNotification');
      // A location operator hears the globalId only: the publisher's own reference is for border agencies.
      expect(received.json.consignment).to.deep.equal({ globalId: c.globalId, href: `${node.url}${consignmentPath(c.globalId)}` });
      expect(signatureValid(secrets[name], received)).to.equal(true);
    }
    for (const name of ['border', 'douane'] as const)
      expect(signalsAbout(name, c.globalId).map((s) => s.type)).to.deep.equal(['PreNotification']);
    const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
    expect(view.carrierParty).to.deep.equal({ type: 'TradeParty', name: 'Channel Lines' });
    expect(view.carrierAssignedId).to.equal('BKG-777');
    expect(view.status).to.equal('carrierBooked');
    expect(view.consignor).to.deep.equal(c.consignor);
  });

  it('leaves the carrier as it was when the booking names none', async () => {
    const c = consignment();
    await create(c);
    expect((await add(c, event('svc:carrierBooking'))).body.status).to.equal('completed');
    const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
    expect(view.carrierParty).to.deep.equal(c.carrierParty);
    expect(view.carrierAssignedId).to.equal(c.carrierAssignedId);
  });

  it('does not notify location operators off the route', async () => {
    const c = consignment({ unloadingBaseportLocation: { type: 'LogisticsLocation', name: 'Antwerp', UNLocode: 'BEANR' } });
    await create(c);
    expect((await add(c, event('svc:carrierBooking'))).body.status).to.equal('completed');
    const deliveries = await settled(node, 'forwarder', c.globalId, 3);
    expect(deliveries.filter((d) => d.type === 'CarrierBookingNotification').map((d) => d.receiver)).to.deep.equal([USERS.port.org]);
    expect(signalsAbout('rotterdam', c.globalId)).to.deep.equal([]);
  });

  it('sends nothing for a refused or failed activity', async () => {
    const c = consignment();
    await create(c);
    await settled(node, 'forwarder', c.globalId, 2);
    const failed = [
      await node.publish('forwarder', activity('Create', USERS.forwarder.org, { ...c, summaryDescription: 'again' })),
      await node.publish('otherForwarder', activity('Update', USERS.otherForwarder.org, c)),
      await add(c, event('svc:despatched'), 'otherForwarder'),
      await add(c, event('svc:carrierBooking'), 'otherForwarder'),
      await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), { ...target(c), identifier: 'WRONG' })),
    ];
    for (const res of failed) expect(res.body.status, JSON.stringify(res.body)).to.equal('failed');
    const refused = await node.publish('forwarder', activity('Create', USERS.otherForwarder.org, consignment()));
    expect(refused.status).to.equal(403);
    const ghost = consignment();
    expect((await add(ghost, event('svc:despatched'))).body.status).to.equal('failed');
    // A signal raised after all of them arrives; nothing from the failures came before or with it.
    const sentinel = consignment();
    await create(sentinel);
    await settled(node, 'forwarder', sentinel.globalId, 2);
    await pause(100);
    expect(await settled(node, 'forwarder', c.globalId, 2)).to.have.length(2);
    for (const name of RECEIVERS) {
      expect(
        signalsAbout(name, c.globalId).filter((s) => s.type !== 'PreNotification'),
        name,
      ).to.deep.equal([]);
      expect(signalsAbout(name, ghost.globalId), name).to.deep.equal([]);
    }
    expect(signalsAbout('border', c.globalId)).to.have.length(1);
  });

  it('grants no read access: a signalled border agency without a policy gets 404', async () => {
    const c = consignment();
    await create(c);
    await add(c, document('INV-1'));
    await settled(node, 'forwarder', c.globalId, 2);
    const [signal] = signalsAbout('border', c.globalId);
    const href = new URL(signal.consignment.href);
    expect((await node.as('border', 'GET', href.pathname)).status).to.equal(404);
    expect((await node.as('border', 'GET', `${href.pathname}/documents`)).status).to.equal(404);
    expect(
      (await node.as('border', 'GET', `/supply-chain/data-space/documents?consignmentId=${encodeURIComponent(c.globalId)}`)).status,
    ).to.equal(404);
    const list = await node.as('border', 'GET', '/supply-chain/data-space/consignments');
    expect(list.body.map((x: any) => x.globalId)).to.not.include(c.globalId);
  });

  it('shows the publisher each delivery and records delivered signals in systemEvents', async () => {
    const c = consignment();
    await create(c);
    await add(c, event('svc:despatched'));
    const deliveries = await settled(node, 'forwarder', c.globalId, 4);
    for (const d of deliveries) {
      expect(d).to.include({ state: 'delivered', attempts: 1, lastStatus: 204 });
      // Fields without a value are left out, never null (issue 35).
      expect(d).to.not.have.any.keys('lastError', 'nextAttempt');
      expect(d.signal).to.match(/^urn:uuid:/);
      expect([USERS.border.org, USERS.douane.org]).to.include(d.receiver);
      expect(Date.parse(d.completed)).to.not.be.NaN;
    }
    expect(deliveries.map((d) => d.type)).to.deep.equal(['PreNotification', 'PreNotification', 'Despatch', 'Despatch']);
    // Also by identifier, like every consignment path.
    expect((await node.as('forwarder', 'GET', deliveriesPath(c.identifier))).body).to.deep.equal(deliveries);
    const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
    const sent = view.systemEvents.filter((e: any) => e.typeCode === 'SIGNAL_DELIVERED');
    expect(sent).to.have.length(4);
    expect(sent.map((e: any) => e.object.id).sort()).to.deep.equal(deliveries.map((d) => d.signal).sort());
    for (const e of sent) {
      expect(e).to.include.keys('@context', 'id', 'type', 'typeCode', 'source', 'object', 'target', 'date');
      expect(e.target).to.deep.include({ id: c.globalId, type: 'Consignment' });
      // SystemEvent detail: a map of name to object (spec 2.9); the receiver is named by its id.
      expect([USERS.border.org, USERS.douane.org]).to.include(e.object.detail.receiver.id);
      expect(e.object.detail.attempts).to.deep.equal({ value: 1 });
    }
    const own = (await node.as('forwarder', 'GET', `${consignmentPath(c.globalId)}?scope=own`)).body;
    expect(own.systemEvents.filter((e: any) => e.typeCode === 'SIGNAL_DELIVERED')).to.have.length(4);
  });

  it('lets a signalled agency read once a policy covers it, but never its deliveries', async () => {
    const c = await (async () => {
      const x = consignment();
      await create(x);
      return x;
    })();
    await settled(node, 'forwarder', c.globalId, 2);
    const href = new URL(signalsAbout('douane', c.globalId)[0].consignment.href).pathname;
    expect((await node.as('douane', 'GET', href)).status).to.equal(404);
    const policy = await node.as('forwarder', 'POST', '/supply-chain/data-space/policies', { role: 'borderAgency', countries: ['FR'] });
    expect(policy.status, policy.text).to.equal(201);
    const read = await node.as('douane', 'GET', href);
    expect(read.status).to.equal(200);
    expect(read.body.globalId).to.equal(c.globalId);
    expect((await node.as('douane', 'GET', deliveriesPath(c.globalId))).status).to.equal(404);
    expect((await node.as('border', 'GET', href)).status, 'the policy is for FR only').to.equal(404);
  });

  it('lists deliveries to the publisher only', async () => {
    const c = consignment();
    await create(c);
    for (const user of ['otherForwarder', 'border', 'douane', 'port', 'rotterdam'] as const) {
      const res = await node.as(user, 'GET', deliveriesPath(c.globalId));
      expect(res.status, user).to.equal(404);
      expect(res.body).to.have.keys('name', 'message');
    }
    expect((await node.as('forwarder', 'GET', deliveriesPath(newGlobalId()))).status).to.equal(404);
    expect((await node.request('GET', deliveriesPath(c.globalId))).status).to.equal(401);
  });
});
