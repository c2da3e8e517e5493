import { expect } from 'chai';
import { TestNode, USERS, type HttpAnswer } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';
import { READ_BOUND_MS, whileHostile } from './concurrent-read.js';

const INBOX = '/supply-chain/data-space/inbox';
const VALIDATE = '/supply-chain/data-space/validate';

/** A Create whose object holds JSON nested `depth` deep (the 5,000 is 31 KB). */
function nestedInsideObject(depth: number): string {
  const c = consignment();
  const inner = `${'{"consignor":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const body = JSON.stringify(activity('Create', USERS.forwarder.org, { ...c, consignor: '__NESTED__' }));
  return body.replace('"__NESTED__"', inner);
}

async function post(node: TestNode, path: string, rawBody: string): Promise<HttpAnswer> {
  return node.request('POST', path, { rawBody, token: await node.login('forwarder'), headers: { 'content-type': 'application/json' } });
}

/** Hostile payloads (issue 13) against the inbox and /validate, read on a reader thread as in production. */
describe('hostile payloads never stall or jam the reader threads', function () {
  this.timeout(60_000);
  let node: TestNode;

  before(async () => {
    // One reader thread: a slot left busy would hang every later payload.
    node = await TestNode.start({ DATASPACE_READER_THREADS: '1' });
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment()))).status).to.equal(201);
  });
  after(async () => {
    await node.stop();
  });

  for (const path of [INBOX, VALIDATE]) {
    it(`answers 400 for JSON nested 5,000 deep inside object at ${path.split('/').at(-1)}, and the reader thread stays usable`, async () => {
      const raw = nestedInsideObject(5000);
      const { hostile, readMs } = await whileHostile(node, 'otherForwarder', () => post(node, path, raw));
      expect(hostile.status, hostile.text.slice(0, 200)).to.equal(400);
      expect(hostile.body).to.have.keys('name', 'message');
      expect(hostile.body.message).to.contain('nested deeper than 32');
      expect(Math.max(...readMs)).to.be.below(READ_BOUND_MS);
      // The one reader thread still takes work: a valid Create goes through.
      const next = await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment()));
      expect(next.status, next.text.slice(0, 200)).to.equal(201);
    });
  }

  it('answers 413 for more JSON values than the limit at /validate, before any work', async () => {
    const res = await node.as(
      'forwarder',
      'POST',
      VALIDATE,
      consignment({ includedConsignmentItem: Array.from({ length: 30_000 }, (_, i) => i) }),
    );
    expect(res.status).to.equal(413);
    expect(res.body).to.have.keys('name', 'message');
  });

  for (const path of [INBOX, VALIDATE]) {
    it(`answers 413 for a 15,000-item array at ${path.split('/').at(-1)} before any work, and keeps serving`, async () => {
      const body = JSON.stringify(
        activity('Create', USERS.forwarder.org, consignment({ includedConsignmentItem: Array.from({ length: 15_000 }, (_, i) => i) })),
      );
      const { hostile, readMs, hostileMs } = await whileHostile(node, 'otherForwarder', () => post(node, path, body));
      expect(hostile.status, hostile.text.slice(0, 200)).to.equal(413);
      expect(hostile.body.message).to.contain('more than the limit of 1000');
      expect(hostileMs).to.be.below(2000);
      expect(Math.max(...readMs)).to.be.below(READ_BOUND_MS);
    });
  }

  it('validates a large payload (3,000 item values) on a reader thread: other users are served meanwhile', async () => {
    const included = Array.from({ length: 3 }, (_, c) => ({
      type: 'Consignment',
      identifier: `HB-${c}`,
      includedConsignmentItem: Array.from({ length: 1000 }, (_, i) => i),
    }));
    const body = JSON.stringify(activity('Create', USERS.forwarder.org, consignment({ includedConsignment: included })));
    const { hostile, readMs, hostileMs } = await whileHostile(node, 'otherForwarder', () => post(node, VALIDATE, body));
    expect(hostile.status, hostile.text.slice(0, 200)).to.equal(200);
    expect(hostile.body.conforms).to.equal(false);
    console.log(
      `      /validate of 3,000 item values: ${hostileMs.toFixed(0)} ms; ${readMs.length} reads by another user meanwhile, slowest ${Math.max(...readMs).toFixed(0)} ms`,
    );
    expect(Math.max(...readMs)).to.be.below(READ_BOUND_MS);
  });

  it('answers the report formats of /validate from the reader thread', async () => {
    const token = await node.login('forwarder');
    const bad = JSON.stringify(consignment({ identifier: undefined }));
    const turtle = await node.request('POST', VALIDATE, {
      rawBody: bad,
      token,
      headers: { 'content-type': 'application/json', accept: 'text/turtle' },
    });
    expect(turtle.status).to.equal(200);
    expect(turtle.headers.get('content-type')).to.match(/^text\/turtle/);
    expect(turtle.text).to.contain('sh:ValidationReport');
    const json = await node.request('POST', VALIDATE, { rawBody: bad, token, headers: { 'content-type': 'application/json' } });
    expect(json.headers.get('content-type')).to.match(/^application\/json/);
    expect(json.body.conforms).to.equal(false);
  });
});
