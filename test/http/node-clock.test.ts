import { expect } from 'chai';
import { FixedClock } from '../../src/core/ports/clock.js';
import { activity, consignment, event, newGlobalId, target } from '../helpers/payloads.js';
import { TestNode, USERS } from '../helpers/test-node.js';

const DAY = 24 * 3_600_000;
const T0 = '2031-05-04T03:02:01Z';

/**
 * The node reads the time through one port (core/ports/clock.ts) handed out by createNode: what it
 * stamps on an activity's entry and the idempotency window both follow the clock it is given.
 */
describe('the node reads the time through its clock', () => {
  const clock = new FixedClock(T0);
  let node: TestNode;
  before(async () => {
    node = await TestNode.start({}, undefined, undefined, clock);
  });
  after(() => node.stop());

  it("stamps an activity's entry and task with the clock's time", async () => {
    const created = await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment()));
    expect(created.body.status, created.text).to.equal('completed');
    expect(created.body.dateCreated).to.equal(T0);
    expect(created.body.tasks.map((t: { startDate: string; endDate: string }) => [t.startDate, t.endDate])).to.deep.equal([[T0, T0]]);
  });

  it('answers a retry within the window by the clock, and applies the activity anew once the clock has passed it', async () => {
    const c = consignment();
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    const despatch = {
      ...activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)),
      id: `urn:uuid:${newGlobalId().slice(9)}`,
    };
    const first = await node.publish('forwarder', despatch);
    expect(first.body.status, first.text).to.equal('completed');
    clock.advance(6 * DAY);
    expect((await node.publish('forwarder', despatch)).body).to.deep.equal(first.body);
    // Past the default window of seven days, the id is forgotten.
    clock.advance(2 * DAY);
    const anew = await node.publish('forwarder', despatch);
    expect(anew.body.status, anew.text).to.equal('completed');
    expect(anew.body.id).to.not.equal(first.body.id);
    expect(anew.body.dateCreated).to.equal(new Date(Date.parse(T0) + 8 * DAY).toISOString().replace('.000Z', 'Z'));
  });
});
