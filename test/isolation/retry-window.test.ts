import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { activity, consignment, event, target } from '../helpers/payloads.js';
import { TestNode, USERS } from '../helpers/test-node.js';

const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;
const withId = <T extends object>(body: T, id: string) => ({ ...body, id });

/**
 * The activity ids remembered for retries (spec 2.1 `id`) are bounded per organisation: a burst of
 * activities from one organisation makes it forget its own oldest ids, never another's.
 */
describe("isolation: one organisation's activities never push another's retry ids out", function () {
  this.timeout(120_000);
  const ENV = { DATASPACE_IDEMPOTENCY_IDS_PER_ORG: '3' };
  let node: TestNode;
  let dir: string;
  before(async () => {
    node = await TestNode.start(ENV);
    dir = node.config.dataDir;
  });
  after(async () => {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers A's retry with its first answer after B sent more ids than its bound, and B's oldest id applies anew", async () => {
    const a = consignment();
    const aCreate = withId(activity('Create', USERS.forwarder.org, a), 'urn:example:a-create');
    const first = await node.publish('forwarder', aCreate);
    expect(first.body.status, first.text).to.equal('completed');

    const b = consignment();
    expect((await node.publish('otherForwarder', activity('Create', USERS.otherForwarder.org, b))).body.status).to.equal('completed');
    const bAdd = (n: number) =>
      withId(activity('Add', USERS.otherForwarder.org, event('svc:carrierBooking'), target(b)), `urn:example:b-${n}`);
    const bFirst = [];
    for (let n = 1; n <= 5; n++) {
      const res = await node.publish('otherForwarder', bAdd(n));
      expect(res.body.status, res.text).to.equal('completed');
      bFirst.push(res.body);
    }
    const events = async () => (await node.as('otherForwarder', 'GET', consignmentPath(b.globalId))).body.events.length;
    expect(await events()).to.equal(5);

    // A's id is still remembered: the same answer, and nothing applied twice.
    const again = await node.publish('forwarder', aCreate);
    expect(again.body).to.deep.equal(first.body);
    // B's newest ids are remembered; its oldest two are forgotten, so b-1 is applied anew.
    expect((await node.publish('otherForwarder', bAdd(5))).body).to.deep.equal(bFirst[4]);
    expect(await events()).to.equal(5);
    const reapplied = await node.publish('otherForwarder', bAdd(1));
    expect(reapplied.body.status).to.equal('completed');
    expect(reapplied.body.id).to.not.equal(bFirst[0].id);
    expect(await events()).to.equal(6);

    // A restart reads the same window back from the activity log.
    await node.stop(false);
    node = await TestNode.start(ENV, dir);
    expect((await node.publish('forwarder', aCreate)).body).to.deep.equal(first.body);
    expect((await node.publish('otherForwarder', bAdd(1))).body).to.deep.equal(reapplied.body);
    expect((await node.publish('otherForwarder', bAdd(5))).body).to.deep.equal(bFirst[4]);
    expect(await events()).to.equal(6);
  });
});
