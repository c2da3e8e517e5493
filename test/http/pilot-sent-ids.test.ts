import { expect } from 'chai';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { activity, document, newGlobalId, target, type Json } from '../helpers/payloads.js';
import { pilotE } from '../helpers/pilot-forms.js';

const BASE = '/supply-chain/data-space';
const path = (id: string, rest = '') => `${BASE}/consignments/${encodeURIComponent(id)}${rest}`;
/** A 404's body with the id it names taken out: what tells an unseen consignment from one that does not exist. */
const unseen = (body: Json, id: string) => ({ name: body.name, message: String(body.message).split(id).join('<id>') });

/**
 * Pilot E sends its consignment's root `id` (`urn:ucr:…`) beside the globalId, and the read view gives
 * it back as `id`: the consignment's URL answers to it too, on every sub-resource, under the same read
 * policy as its globalId (docs/decisions.md, "Sent ids"). On a replica set this is the PostgreSQL
 * catalog's `sent_id` (replica-http.test.ts runs this file there).
 */
describe("pilot E's sent id: the consignment's URL by the id it was sent with (issue 47)", () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
    // The border agency reads GB-bound consignments; otherForwarder is covered by no policy.
    const policy = await node.as('forwarder', 'POST', `${BASE}/policies`, { role: 'borderAgency', countries: ['GB'] });
    expect(policy.status, policy.text).to.equal(201);
  });
  after(async () => {
    await node.stop();
  });

  const send = async (type: 'Create' | 'Update', object: Json, user: UserName = 'forwarder'): Promise<Json> => {
    const res = await node.publish(user, activity(type, USERS[user].org, object));
    expect(res.status, res.text).to.equal(201);
    return res.body;
  };
  const created = async (): Promise<Json> => {
    const sent = pilotE();
    expect((await send('Create', sent)).status).to.equal('completed');
    return sent;
  };

  it('answers GET /consignments/<sent id> with the view, and every sub-resource by it', async () => {
    const sent = await created();
    const added = await node.publish('forwarder', activity('Add', USERS.forwarder.org, document('INV-E-1'), target(sent)));
    expect(added.body.status, added.text).to.equal('completed');
    for (const user of ['forwarder', 'border'] as const) {
      const read = await node.as(user, 'GET', path(sent.id));
      expect(read.status, read.text).to.equal(200);
      expect(read.body).to.include({ id: sent.id, globalId: sent.globalId, identifier: sent.identifier });
      const byGlobalId = await node.as(user, 'GET', path(sent.globalId));
      expect(read.body).to.deep.equal(byGlobalId.body);
      const documents = await node.as(user, 'GET', path(sent.id, '/documents'));
      expect(documents.status, documents.text).to.equal(200);
      expect(documents.body.map((d: Json) => d.documentId)).to.deep.equal(['INV-E-1']);
      const one = await node.as(user, 'GET', path(sent.id, '/documents/INV-E-1?meta'));
      expect(one.status, one.text).to.equal(200);
      const filtered = await node.as(user, 'GET', `${BASE}/documents?consignmentId=${encodeURIComponent(sent.id)}`);
      expect(
        filtered.body.map((d: Json) => d.documentId),
        filtered.text,
      ).to.deep.equal(['INV-E-1']);
    }
    expect((await node.as('forwarder', 'GET', path(sent.id, '/deliveries'))).status).to.equal(200);
    // A list item names the consignment as its view does.
    const listed = (await node.as('forwarder', 'GET', `${BASE}/consignments?limit=500`)).body.find(
      (c: Json) => c.globalId === sent.globalId,
    );
    expect(listed).to.include({ id: sent.id, globalId: sent.globalId });
  });

  it('answers a reader no policy covers 404, the same body as for an id no consignment has', async () => {
    const sent = await created();
    const nobody = `urn:ucr:24PLP${newGlobalId().slice(-12).toUpperCase()}`;
    for (const rest of ['', '/documents', '/deliveries']) {
      const hidden = await node.as('otherForwarder', 'GET', path(sent.id, rest));
      const missing = await node.as('otherForwarder', 'GET', path(nobody, rest));
      expect(hidden.status, `${rest} ${hidden.text}`).to.equal(404);
      expect(missing.status).to.equal(404);
      expect(unseen(hidden.body, sent.id)).to.deep.equal(unseen(missing.body, nobody));
    }
  });

  it("refuses a Create or an Update whose id is another consignment's (Conflict), and names the first one still", async () => {
    const first = await created();
    const again: Json = { ...pilotE(), id: first.id };
    for (const user of ['forwarder', 'otherForwarder'] as const) {
      const refused = await send('Create', again, user);
      expect(refused.status, JSON.stringify(refused)).to.equal('failed');
      expect(refused.tasks[0].error).to.deep.equal({ name: 'Conflict', message: `id ${first.id} is already in use` });
    }
    expect((await node.as('forwarder', 'GET', path(again.globalId))).status).to.equal(404);
    const second = await created();
    const taken = await send('Update', { ...second, id: first.id });
    expect(taken.status).to.equal('failed');
    expect(taken.tasks[0].error.name).to.equal('Conflict');
    expect((await node.as('forwarder', 'GET', path(first.id))).body.globalId).to.equal(first.globalId);
    expect((await node.as('forwarder', 'GET', path(second.id))).body.globalId).to.equal(second.globalId);
    // Its own id again is no conflict.
    expect((await send('Update', second)).status).to.equal('completed');
  });

  it('follows an Update: a new id answers and the old one no longer does; without one only the globalId and identifier do', async () => {
    const sent = await created();
    const renamed = `${sent.id}-2`;
    expect((await send('Update', { ...sent, id: renamed })).status).to.equal('completed');
    expect((await node.as('forwarder', 'GET', path(renamed))).body.id).to.equal(renamed);
    expect((await node.as('forwarder', 'GET', path(sent.id))).status).to.equal(404);
    // The old id is free again.
    const other: Json = { ...pilotE(), id: sent.id };
    expect((await send('Create', other)).status).to.equal('completed');
    expect((await node.as('forwarder', 'GET', path(sent.id))).body.globalId).to.equal(other.globalId);
    const { id: _id, ...withoutId } = sent;
    expect((await send('Update', withoutId)).status).to.equal('completed');
    expect((await node.as('forwarder', 'GET', path(renamed))).status).to.equal(404);
    expect((await node.as('forwarder', 'GET', path(sent.identifier))).body.id).to.equal(sent.globalId);
  });

  it("takes an id in globalId form that is not the consignment's own globalId, warns, and is not found by it", async () => {
    const sent: Json = { ...pilotE(), id: newGlobalId() };
    const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, sent));
    expect(res.body.status, res.text).to.equal('completed');
    expect(
      res.body.warnings.map((w: Json) => [w.path, w.value]),
      res.text,
    ).to.deep.equal([['object.id', sent.id]]);
    expect(res.body.warnings[0].message).to.contain(`id ${sent.id} has the form of a globalId`);
    // A path id in globalId form names the consignment with that globalId alone.
    expect((await node.as('forwarder', 'GET', path(sent.id))).status).to.equal(404);
    expect((await node.as('forwarder', 'GET', path(sent.globalId))).status).to.equal(200);
  });

  it('still answers to the sent id after a restart', async () => {
    const sent = await created();
    await node.stop(false);
    node = await TestNode.start({}, node.config.dataDir);
    const read = await node.as('border', 'GET', path(sent.id));
    expect(read.status, read.text).to.equal(200);
    expect(read.body.globalId).to.equal(sent.globalId);
  });
});
