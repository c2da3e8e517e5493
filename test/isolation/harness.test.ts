import { expect } from 'chai';
import { activity, consignment } from '../helpers/payloads.js';
import { TestNode, USERS } from '../helpers/test-node.js';
import { p99, publishOwn, readsOf, whileNoisy } from './neighbours.js';

/** A generous bound on A's requests and on the event loop's longest stall, on a shared 2-core machine. */
const LATENCY_BOUND_MS = 1500;
const LOOP_BOUND_MS = 500;

describe('isolation: the noisy-neighbour harness on an ordinary burst', function () {
  this.timeout(120_000);
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  it("B's burst of 200 Creates at 8 connections leaves A's requests fast, the loop free and A's data as it was", async () => {
    const witness = await publishOwn(node, 'forwarder');
    const working = await publishOwn(node, 'forwarder');
    const readers = ['forwarder', 'border', 'otherForwarder'] as const;
    const before = await readsOf(node, witness.globalId, [...readers]);
    const run = await whileNoisy(node, { user: 'forwarder', consignment: working }, async () => {
      const token = await node.login('otherForwarder');
      const statuses: number[] = [];
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let i = 0; i < 25; i += 1) {
            const res = await node.request('POST', '/supply-chain/data-space/inbox', {
              token,
              body: activity('Create', USERS.otherForwarder.org, consignment()),
            });
            statuses.push(res.status);
          }
        }),
      );
      return statuses;
    });
    expect(run.noisy.filter((s) => s !== 201)).to.deep.equal([]);
    expect(run.quiet.failures).to.deep.equal([]);
    expect(run.quiet.latencies.length).to.be.greaterThan(0);
    expect(p99(run.quiet.latencies)).to.be.below(LATENCY_BOUND_MS);
    expect(run.maxLoopDelayMs).to.be.below(LOOP_BOUND_MS);
    expect(await readsOf(node, witness.globalId, [...readers])).to.deep.equal(before);
  });
});
