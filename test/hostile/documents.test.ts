import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, document, target } from '../helpers/payloads.js';
import { SERVING_BOUND_MS, timedRead } from './serving.js';

const BIG = Buffer.alloc(3000, 7);

describe('hostile document Adds', function () {
  this.timeout(30_000);
  let server: Server;
  let base: string;
  let hits = 0;
  let node: TestNode;

  before(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(BIG);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    node = await TestNode.start({ DATASPACE_FETCH_ALLOW: '127.0.0.1', DATASPACE_DOCUMENT_QUOTA_BYTES: '7000' });
  });
  after(async () => {
    await node.stop();
    server.closeAllConnections();
    server.close();
  });

  const create = async (user: 'forwarder' | 'otherForwarder' = 'forwarder') => {
    const c = consignment();
    expect((await node.publish(user, activity('Create', USERS[user].org, c))).status).to.equal(201);
    return c;
  };

  it('fetches nothing for 12 Adds to a consignment the caller may not write, and keeps serving', async () => {
    const c = await create();
    const before = hits;
    for (let i = 0; i < 12; i++) {
      const res = await node.publish(
        'otherForwarder',
        activity('Add', USERS.otherForwarder.org, document(`BIG-${i}`, { uRIId: `${base}/big-${i}.pdf` }), target(c)),
      );
      expect(res.status).to.equal(201);
      expect(res.body.status).to.equal('failed');
      expect(res.body.tasks[0].error.name).to.equal('NotFound');
    }
    expect(hits - before).to.equal(0);
    const read = await timedRead(node);
    expect(read.status).to.equal(200);
    expect(read.ms).to.be.below(SERVING_BOUND_MS);
  });

  it("does not tell another forwarder the owner's identifier when it names a real globalId with a wrong one", async () => {
    const c = await create();
    const res = await node.publish(
      'otherForwarder',
      activity('Add', USERS.otherForwarder.org, document('X-1', { uRIId: `${base}/x.pdf` }), { ...target(c), identifier: 'GUESS' }),
    );
    expect(res.body.status).to.equal('failed');
    expect(JSON.stringify(res.body)).to.not.contain(c.identifier);
    // The same answer as with the right identifier: nothing learned either way.
    const right = await node.publish(
      'otherForwarder',
      activity('Add', USERS.otherForwarder.org, document('X-2', { uRIId: `${base}/x.pdf` }), target(c)),
    );
    expect(res.body.tasks[0].error.name).to.equal(right.body.tasks[0].error.name);
    // The owner, who knows it, is told.
    const own = await node.publish(
      'forwarder',
      activity('Add', USERS.forwarder.org, document('X-3', { uRIId: 'data:,x' }), { ...target(c), identifier: 'GUESS' }),
    );
    expect(own.body.tasks[0].error.message).to.contain(c.identifier);
  });

  it("answers 507 once an organisation's files would pass its quota, storing nothing, while others still store", async () => {
    const c = await create();
    for (let i = 0; i < 2; i++) {
      const ok = await node.publish(
        'forwarder',
        activity('Add', USERS.forwarder.org, document(`Q-${i}`, { uRIId: `${base}/q-${i}.pdf` }), target(c)),
      );
      expect(ok.body.status, JSON.stringify(ok.body)).to.equal('completed');
    }
    const full = await node.publish(
      'forwarder',
      activity('Add', USERS.forwarder.org, document('Q-2', { uRIId: `${base}/q-2.pdf` }), target(c)),
    );
    expect(full.status).to.equal(507);
    expect(full.body.name).to.equal('InsufficientStorage');
    expect(full.body.message).to.contain('DATASPACE_DOCUMENT_QUOTA_BYTES');
    const view = await node.as('forwarder', 'GET', `/supply-chain/data-space/consignments/${encodeURIComponent(c.globalId)}`);
    expect(JSON.stringify(view.body)).to.not.contain('Q-2');
    // Another organisation's quota is its own.
    const theirs = await create('otherForwarder');
    const other = await node.publish(
      'otherForwarder',
      activity('Add', USERS.otherForwarder.org, document('O-1', { uRIId: `${base}/o.pdf` }), target(theirs)),
    );
    expect(other.body.status).to.equal('completed');
    const read = await timedRead(node, 'border');
    expect(read.status).to.equal(200);
  });

  it("refuses a location operator's match on a consignment no policy lets it read, like a read", async () => {
    const c = await create();
    const match = {
      '@context': 'https://vocabulary.uncefact.org/unece-context-D23B.jsonld',
      type: 'SupplyChainEvent',
      typeCode: 'svc:locationOperatorMatch',
      occurrenceDateTime: '2026-11-20T10:00:00Z',
    };
    const res = await node.publish('port', activity('Add', USERS.port.org, match, target(c)));
    expect(res.body.status).to.equal('failed');
    expect(res.body.tasks[0].error.name).to.equal('NotFound');
    expect((await node.as('port', 'GET', `/supply-chain/data-space/consignments/${encodeURIComponent(c.globalId)}`)).status).to.equal(404);
  });

  it('refuses at publish a data: URL whose media type holds control characters', async () => {
    const c = await create('otherForwarder');
    const res = await node.publish(
      'otherForwarder',
      activity('Add', USERS.otherForwarder.org, document('CTL-1', { uRIId: 'data:text/html\u0001x;base64,QUJD' }), target(c)),
    );
    expect(res.status, res.text).to.equal(422);
    expect(res.body).to.include.keys('name', 'message');
    const view = await node.as('otherForwarder', 'GET', `/supply-chain/data-space/consignments/${encodeURIComponent(c.globalId)}`);
    expect(JSON.stringify(view.body)).to.not.contain('CTL-1');
  });
});
