import { expect } from 'chai';
import { activity, consignment, document, event, newGlobalId, target } from '../helpers/payloads.js';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { p99, publishOwn, readsOf, whileNoisy, type NeighbourRun } from './neighbours.js';
import { changedLines, sparqlAbout, sparqlRows, UNECE, whoseIs } from './identity-reads.js';

/** Generous bounds on a shared 2-core machine, as in harness.test.ts. */
const LATENCY_BOUND_MS = 1500;
const LOOP_BOUND_MS = 500;
const READERS: UserName[] = ['forwarder', 'border', 'douane', 'port', 'otherForwarder'];
const upper = (globalId: string) => `urn:uuid:${globalId.slice('urn:uuid:'.length).toUpperCase()}`;

function quietWasFine(run: NeighbourRun<unknown>): void {
  expect(run.quiet.failures).to.deep.equal([]);
  expect(run.quiet.latencies.length).to.be.greaterThan(0);
  expect(p99(run.quiet.latencies), "p99 of A's requests, ms").to.be.below(LATENCY_BOUND_MS);
  expect(run.maxLoopDelayMs, 'longest event-loop stall, ms').to.be.below(LOOP_BOUND_MS);
}

describe('isolation: identities are owned', function () {
  this.timeout(180_000);
  let node: TestNode;
  /** A's witness (read before and after each case), with an event and a document; A's working consignment; B's older one. */
  let witness: Record<string, any>;
  let working: Record<string, any>;
  let older: Record<string, any>;
  let eventId: string;
  let documentId: string;
  let revisionGraph: string;

  const snapshot = async () => ({
    reads: await readsOf(node, witness.globalId, READERS),
    consignment: await sparqlAbout(node, witness.globalId, READERS),
    event: await sparqlAbout(node, eventId, READERS),
    revision: await sparqlAbout(node, revisionGraph, READERS),
  });

  before(async () => {
    node = await TestNode.start();
    const share = async (user: UserName, policy: Record<string, unknown>) =>
      expect((await node.as(user, 'POST', '/supply-chain/data-space/policies', policy)).status).to.equal(201);
    await share('forwarder', { role: 'borderAgency', countries: ['GB', 'FR'] });
    await share('forwarder', { role: 'locationOperator', locations: ['GBFXT'] });
    await share('otherForwarder', { role: 'borderAgency', countries: ['GB'] });
    older = await publishOwn(node, 'otherForwarder');
    witness = await publishOwn(node, 'forwarder');
    working = await publishOwn(node, 'forwarder');
    for (const object of [event('svc:despatched'), document('INV-1')]) {
      expect((await node.publish('forwarder', activity('Add', USERS.forwarder.org, object, target(witness)))).body.status).to.equal(
        'completed',
      );
    }
    const view = (await node.as('forwarder', 'GET', `/supply-chain/data-space/consignments/${witness.globalId}`)).body;
    eventId = view.events[0].id;
    documentId = view.documents[0].id;
    // The current revision's graph (the document's subject in RDF), as a reader finds it in SPARQL.
    revisionGraph = (
      await sparqlRows(node, 'forwarder', `SELECT ?d WHERE { <${witness.globalId}> <${UNECE}associatedDocument> ?d }`)
    ).replace(/^200 d=/, '');
    expect(revisionGraph).to.match(/^urn:uuid:/);
  });
  after(async () => {
    await node.stop();
  });

  it("refuses B an identifier that is A's globalId (or any globalId but its own), on Create and Update, and A's links keep leading to A's data", async () => {
    const before = await snapshot();
    const update = (identifier: string) =>
      node.publish('otherForwarder', activity('Update', USERS.otherForwarder.org, { ...older, identifier }));
    const create = (identifier: string) =>
      node.publish('otherForwarder', activity('Create', USERS.otherForwarder.org, consignment({ identifier })));
    const run = await whileNoisy(node, { user: 'forwarder', consignment: working }, async () => [
      await update(witness.globalId),
      await update(upper(witness.globalId)),
      await create(witness.globalId),
      await create(newGlobalId()),
    ]);
    for (const res of run.noisy) {
      expect(res.status, res.text).to.equal(422);
      expect(res.body.message).to.match(/^object\.identifier .* must be the consignment's own globalId/);
      // The same answer whether the value names a consignment or none: nothing about A is told.
      expect(res.text).to.not.contain(USERS.forwarder.org).and.not.contain(witness.identifier);
    }
    quietWasFine(run);
    expect(changedLines(before, await snapshot())).to.deep.equal([]);
    // An identifier in globalId form that is the consignment's own stays allowed.
    expect((await update(older.globalId)).body.status).to.equal('completed');
    for (const id of [witness.globalId, upper(witness.globalId)]) {
      expect(await whoseIs(node, 'border', id)).to.equal(`${USERS.forwarder.org} ${witness.globalId}`);
    }
    const listed = (await node.as('border', 'GET', '/supply-chain/data-space/consignments?limit=500')).body.find(
      (c: any) => c.globalId === witness.globalId,
    );
    const href = await node.as('border', 'GET', new URL(listed.href).pathname);
    expect(href.body.owner).to.equal(USERS.forwarder.org);
    const documents = (await node.as('border', 'GET', '/supply-chain/data-space/documents?limit=500')).body;
    expect(documents.map((d: any) => d.consignmentId)).to.include(witness.globalId);
  });

  it("treats A's globalId in upper case, and the name of A's event or document, as taken: B's Create fails saying no more", async () => {
    const before = await snapshot();
    const run = await whileNoisy(node, { user: 'forwarder', consignment: working }, async () => {
      const answers = [];
      for (const globalId of [upper(witness.globalId), eventId, documentId, revisionGraph]) {
        answers.push(await node.publish('otherForwarder', activity('Create', USERS.otherForwarder.org, consignment({ globalId }))));
      }
      return answers;
    });
    for (const res of run.noisy) {
      expect(res.status, res.text).to.equal(201);
      expect(res.body.status).to.equal('failed');
      expect(res.body.tasks[0].error).to.deep.equal({
        name: 'Conflict',
        message: `globalId ${res.body.tasks[0].error.message.split(' ')[1]} is already in use`,
      });
      expect(res.text).to.not.contain(USERS.forwarder.org).and.not.contain(witness.identifier);
    }
    quietWasFine(run);
    expect(changedLines(before, await snapshot())).to.deep.equal([]);
    expect(await whoseIs(node, 'otherForwarder', upper(witness.globalId))).to.equal('404');
  });

  it('refuses those names also among Creates sent at once, which the node asks the store about together', async () => {
    const taken = [eventId, documentId, revisionGraph];
    const fresh = Array.from({ length: 8 }, () => consignment());
    const answers = await Promise.all([
      ...taken.map((globalId) => node.publish('otherForwarder', activity('Create', USERS.otherForwarder.org, consignment({ globalId })))),
      ...fresh.map((c) => node.publish('otherForwarder', activity('Create', USERS.otherForwarder.org, c))),
    ]);
    expect(answers.map((res) => res.body.status)).to.deep.equal([...taken.map(() => 'failed'), ...fresh.map(() => 'completed')]);
    for (const res of answers.slice(0, taken.length)) expect(res.body.tasks[0].error.name).to.equal('Conflict');
  });

  it('stores a globalId sent in upper case in its canonical form, says so, and finds it in either case', async () => {
    const sent = upper(newGlobalId());
    const c = consignment({ globalId: sent });
    const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    expect(res.body.status, res.text).to.equal('completed');
    expect(res.body.warnings.map((w: any) => w.path)).to.deep.equal(['object.globalId']);
    const canonical = sent.toLowerCase();
    for (const id of [sent, canonical]) expect(await whoseIs(node, 'border', id)).to.equal(`${USERS.forwarder.org} ${canonical}`);
    const view = (await node.as('forwarder', 'GET', `/supply-chain/data-space/consignments/${sent}`)).body;
    expect([view.id, view.globalId]).to.deep.equal([canonical, canonical]);
    // Adds and Updates name it in either case too.
    expect(
      (await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), { ...target(c), globalId: sent })))
        .body.status,
    ).to.equal('completed');
    expect(
      (await node.publish('forwarder', activity('Update', USERS.forwarder.org, { ...c, summaryDescription: 'Updated' }))).body.status,
    ).to.equal('completed');
    expect((await node.as('forwarder', 'GET', `/supply-chain/data-space/consignments/${canonical}`)).body.summaryDescription).to.equal(
      'Updated',
    );
  });
});
