import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, document, target } from '../helpers/payloads.js';

const TIMEOUT_MS = 3000;

/**
 * Document files are fetched before the write lock, DATASPACE_FETCH_CONCURRENCY at once (4 here), in
 * turns by organisation: B's Adds name files whose servers never finish; B holds at most half the
 * fetches, waits with at most DATASPACE_FETCH_QUEUE_PER_ORG more (2 here) and is refused past that,
 * while A's Add of a small file is fetched at once.
 */
describe('isolation: document fetches, a share for each organisation', function () {
  this.timeout(60_000);
  let server: Server;
  let base: string;
  let node: TestNode;
  let open = 0;

  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/fast.pdf') {
        res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4 fast\n%%EOF\n');
        return;
      }
      open++;
      res.on('close', () => {
        open--;
      });
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.write('%PDF'); // and never more
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    node = await TestNode.start({
      DATASPACE_FETCH_ALLOW: '127.0.0.1',
      DATASPACE_FETCH_TIMEOUT_MS: String(TIMEOUT_MS),
      DATASPACE_FETCH_CONCURRENCY: '4',
      DATASPACE_FETCH_QUEUE_PER_ORG: '2',
    });
  });
  after(async () => {
    await node.stop();
    server.closeAllConnections();
    server.close();
  });

  it("keeps B within two fetches and two waiting, refuses its fifth with 429, and fetches A's file at once", async () => {
    const mine = consignment();
    const theirs = consignment();
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, mine))).body.status).to.equal('completed');
    expect((await node.publish('otherForwarder', activity('Create', USERS.otherForwarder.org, theirs))).body.status).to.equal('completed');
    const b = await node.login('otherForwarder');
    const hanging = Array.from({ length: 4 }, (_, i) =>
      node.request('POST', '/supply-chain/data-space/inbox', {
        token: b,
        body: activity('Add', USERS.otherForwarder.org, document(`SLOW-${i}`, { uRIId: `${base}/hang/${i}.pdf` }), target(theirs)),
      }),
    );
    while (open < 2) await new Promise((ok) => setTimeout(ok, 20));
    // Two of B's four are fetched; the other two wait for B's share, though two slots are free.
    await new Promise((ok) => setTimeout(ok, 300));
    expect(open).to.equal(2);
    const fifth = await node.request('POST', '/supply-chain/data-space/inbox', {
      token: b,
      body: activity('Add', USERS.otherForwarder.org, document('SLOW-4', { uRIId: `${base}/hang/4.pdf` }), target(theirs)),
    });
    expect(fifth.status).to.equal(429);
    expect(fifth.body.name).to.equal('TooManyRequests');
    const started = Date.now();
    const fast = await node.publish(
      'forwarder',
      activity('Add', USERS.forwarder.org, document('FAST', { uRIId: `${base}/fast.pdf` }), target(mine)),
    );
    const took = Date.now() - started;
    expect(fast.body.status).to.equal('completed');
    expect(took).to.be.below(TIMEOUT_MS);
    // B's fetches time out in two rounds of two: its Adds fail (FileNotFetched), nothing else waited for them.
    const answers = await Promise.all(hanging);
    expect(answers.map((a) => a.body.status)).to.deep.equal(['failed', 'failed', 'failed', 'failed']);
  });
});
