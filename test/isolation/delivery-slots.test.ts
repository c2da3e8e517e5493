import { expect } from 'chai';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';
import { SignalReceiver, testSecret } from '../helpers/signal-receiver.js';

const ENDPOINT = '/supply-chain/data-space/notification-endpoint';
const CONSIGNMENTS = 16;
const TIMEOUT_MS = 15_000;

/**
 * Every Create pre-notifies every border agency. The French agency's endpoint takes every request and
 * never answers (each attempt runs to DATASPACE_NOTIFY_TIMEOUT_MS); the British agency's answers at
 * once. With the node's 8 delivery slots taken in arrival order, the hanging receiver held all of
 * them after 8 Creates and the British agency waited a whole time-out for each further signal. A
 * receiver holds at most half the slots, so the other's signals keep arriving.
 */
describe('isolation: a receiver that never answers holds at most half the delivery slots', function () {
  this.timeout(60_000);
  let node: TestNode;
  let prompt: SignalReceiver;
  let hanging: SignalReceiver;

  before(async () => {
    node = await TestNode.start({ DATASPACE_NOTIFY_TIMEOUT_MS: String(TIMEOUT_MS), DATASPACE_NOTIFY_CONCURRENCY: '8' });
    prompt = await SignalReceiver.start();
    hanging = await SignalReceiver.start(() => 'hang');
    expect((await node.as('border', 'PUT', ENDPOINT, { url: prompt.url, secret: testSecret('prompt') })).status).to.equal(200);
    expect((await node.as('douane', 'PUT', ENDPOINT, { url: hanging.url, secret: testSecret('hanging') })).status).to.equal(200);
  });
  after(async () => {
    await node.stop();
    await prompt.close();
    await hanging.close();
  });

  it(`delivers ${CONSIGNMENTS} pre-notifications to the answering agency well within one time-out of the other`, async () => {
    const started = Date.now();
    const sent: string[] = [];
    for (let i = 0; i < CONSIGNMENTS; i++) {
      const c = consignment();
      const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      expect(res.body.status).to.equal('completed');
      sent.push(c.globalId);
    }
    await prompt.until(
      (received) => sent.every((id) => received.some((r) => r.json?.consignment?.globalId === id && r.answered === 204)),
      TIMEOUT_MS,
    );
    const took = Date.now() - started;
    console.log(
      `      ${CONSIGNMENTS} signals to the answering agency in ${took} ms; the hanging one holds ${hanging.received.length} requests`,
    );
    expect(took).to.be.below(TIMEOUT_MS);
    // The hanging receiver got its share of the slots (its attempts are under way), not all of them.
    expect(hanging.received.length).to.be.within(1, 4);
  });
});
