import { expect } from 'chai';
import { activity, consignment, document, event, newGlobalId, target } from '../helpers/payloads.js';
import { SignalReceiver, testSecret } from '../helpers/signal-receiver.js';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { p99, publishOwn, readsOf, whileNoisy } from './neighbours.js';
import { changedLines, sparqlRows } from './identity-reads.js';

const LATENCY_BOUND_MS = 1500;
const LOOP_BOUND_MS = 500;
const API = '/supply-chain/data-space';
const RECEIVERS = ['border', 'douane'] as const;
const READERS: UserName[] = ['forwarder', 'border', 'douane', 'port', 'otherForwarder'];

type Json = Record<string, any>;

describe("isolation: answers about others' consignments reveal no more than needed", function () {
  this.timeout(180_000);
  let node: TestNode;
  const receivers: SignalReceiver[] = [];
  let witness: Json;
  let working: Json;

  /** Waits until the owner sees `count` deliveries of the consignment, none pending. */
  const settled = async (globalId: string, count: number) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const rows = (await node.as('forwarder', 'GET', `${API}/consignments/${globalId}/deliveries`)).body;
      if (rows.length === count && rows.every((d: Json) => d.state !== 'pending')) return;
      if (Date.now() > deadline) throw new Error(`deliveries of ${globalId} did not settle: ${JSON.stringify(rows)}`);
      await new Promise((ok) => setTimeout(ok, 20));
    }
  };
  const systemEvents = async (user: UserName, globalId: string) =>
    (await node.as(user, 'GET', `${API}/consignments/${globalId}`)).body.systemEvents as Json[];
  /** A 404's body with the id asked for blanked out: two answers that differ only there tell nothing apart. */
  const answer = async (user: UserName, path: string, id: string) => {
    const res = await node.as(user, 'GET', path);
    return `${res.status} ${res.text.split(id).join('<id>').split(encodeURIComponent(id)).join('<id>')}`;
  };

  before(async () => {
    node = await TestNode.start({ DATASPACE_NOTIFY_RETRY_MS: '20' });
    for (const name of RECEIVERS) {
      const receiver = await SignalReceiver.start();
      receivers.push(receiver);
      expect((await node.as(name, 'PUT', `${API}/notification-endpoint`, { url: receiver.url, secret: testSecret(name) })).status).to.equal(
        200,
      );
    }
    for (const [user, policy] of [
      ['forwarder', { role: 'borderAgency', countries: ['GB', 'FR'] }],
      ['forwarder', { role: 'locationOperator', locations: ['GBFXT'] }],
      ['otherForwarder', { role: 'borderAgency', countries: ['GB', 'FR'] }],
    ] as const) {
      expect((await node.as(user, 'POST', `${API}/policies`, policy)).status).to.equal(201);
    }
    witness = await publishOwn(node, 'forwarder');
    working = await publishOwn(node, 'forwarder');
    expect(
      (await node.publish('forwarder', activity('Add', USERS.forwarder.org, document('INV-9'), target(witness)))).body.status,
    ).to.equal('completed');
    // A Create sends a Pre-Notification to each border agency: two deliveries, each told in the system events.
    await settled(witness.globalId, 2);
  });
  after(async () => {
    await node.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it("shows a reader only the signal deliveries addressed to it, the owner all, while B's Creates raise signals of their own", async () => {
    const before = await readsOf(node, witness.globalId, READERS);
    const run = await whileNoisy(node, { user: 'forwarder', consignment: working }, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 20; i += 1)
        statuses.push((await node.publish('otherForwarder', activity('Create', USERS.otherForwarder.org, consignment()))).status);
      return statuses;
    });
    expect(run.noisy.filter((s) => s !== 201)).to.deep.equal([]);
    expect(run.quiet.failures).to.deep.equal([]);
    expect(p99(run.quiet.latencies)).to.be.below(LATENCY_BOUND_MS);
    expect(run.maxLoopDelayMs).to.be.below(LOOP_BOUND_MS);
    expect(changedLines(before, await readsOf(node, witness.globalId, READERS))).to.deep.equal([]);

    const deliveries = (events: Json[]) =>
      events
        .filter((e) => String(e.typeCode).startsWith('SIGNAL_'))
        .map((e) => e.object.detail.receiver.id)
        .sort();
    expect(deliveries(await systemEvents('forwarder', witness.globalId))).to.deep.equal([USERS.border.org, USERS.douane.org].sort());
    expect(deliveries(await systemEvents('border', witness.globalId))).to.deep.equal([USERS.border.org]);
    expect(deliveries(await systemEvents('douane', witness.globalId))).to.deep.equal([USERS.douane.org]);
    expect(deliveries(await systemEvents('port', witness.globalId))).to.deep.equal([]);
    // The other events stay visible to every reader.
    expect((await systemEvents('port', witness.globalId)).map((e) => e.typeCode)).to.deep.equal(['CREATE', 'ADD']);
    for (const reader of ['border', 'douane', 'port'] as const) {
      const other = reader === 'border' ? USERS.douane.org : USERS.border.org;
      const turtle = await node.request('GET', `${API}/consignments/${witness.globalId}`, {
        token: await node.login(reader),
        headers: { accept: 'text/turtle' },
      });
      expect(turtle.status).to.equal(200);
      expect(turtle.text).to.not.contain(other).and.not.contain('SIGNAL_');
      expect(
        await sparqlRows(
          node,
          reader,
          `SELECT ?o WHERE { ?s ?p ?o FILTER (CONTAINS(STR(?o), "SIGNAL_") || CONTAINS(STR(?o), "${other}")) }`,
        ),
      ).to.equal('200 ');
      const missing = newGlobalId();
      expect(await answer(reader, `${API}/consignments/${witness.globalId}/deliveries`, witness.globalId)).to.equal(
        await answer(reader, `${API}/consignments/${missing}/deliveries`, missing),
      );
    }
  });

  it("answers B about A's consignment, A's activity and A's documents exactly as about ones that do not exist", async () => {
    const created = await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(witness)));
    const activityUrn: string = created.body.id;
    expect(activityUrn).to.match(/^urn:uuid:/);
    const missing = newGlobalId();
    const pairs: [string, string][] = [
      [`${API}/consignments/${witness.globalId}`, `${API}/consignments/${missing}`],
      [`${API}/consignments/${activityUrn}`, `${API}/consignments/${missing}`],
      [`${API}/activity-logs/${activityUrn}`, `${API}/activity-logs/${missing}`],
      [`${API}/consignments/${witness.globalId}/documents`, `${API}/consignments/${missing}/documents`],
      [`${API}/consignments/${witness.globalId}/documents/INV-9`, `${API}/consignments/${missing}/documents/INV-9`],
      [`${API}/documents?consignmentId=${witness.globalId}`, `${API}/documents?consignmentId=${missing}`],
    ];
    for (const [theirs, none] of pairs) {
      const id = theirs.includes(activityUrn) ? activityUrn : witness.globalId;
      expect(await answer('otherForwarder', theirs, id), theirs).to.equal(await answer('otherForwarder', none, missing));
    }
    for (const subject of [witness.globalId, activityUrn]) {
      expect(await sparqlRows(node, 'otherForwarder', `SELECT ?p WHERE { { <${subject}> ?p ?o } UNION { ?s ?p <${subject}> } }`)).to.equal(
        '200 ',
      );
    }
    // A write naming A's consignment may be refused in its own words (issue 35 settles which), but never with A's data.
    for (const write of [
      activity('Update', USERS.otherForwarder.org, { ...consignment(), globalId: witness.globalId }),
      activity('Add', USERS.otherForwarder.org, event('svc:despatched'), { ...target(witness), identifier: 'GUESS' }),
      activity('Create', USERS.otherForwarder.org, consignment({ globalId: witness.globalId })),
    ]) {
      const res = await node.publish('otherForwarder', write);
      expect(res.text).to.not.contain(witness.identifier).and.not.contain(USERS.forwarder.org).and.not.contain('Forwarder Ltd');
      const log = await node.as('otherForwarder', 'GET', `${API}/activity-logs/${encodeURIComponent(res.body.id)}`);
      expect(log.text).to.not.contain(witness.identifier).and.not.contain(USERS.forwarder.org);
    }
  });
});
