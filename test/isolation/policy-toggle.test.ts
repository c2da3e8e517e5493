import { expect } from 'chai';
import { TestNode, type UserName } from '../helpers/test-node.js';
import { LoopWatch, p99, publishOwn, readsOf, whileNoisy } from './neighbours.js';

/**
 * B registers large data-sharing policies, then toggles a tiny one: coverage follows each change by
 * what the change itself holds, so no request waits for every policy to be read again.
 * ISOLATION_POLICIES and ISOLATION_POLICY_LOCATIONS size it (10 of 39,000 locations by default: what a
 * 1 MB body takes).
 */
const POLICIES = Number(process.env.ISOLATION_POLICIES ?? 10);
const LOCATIONS = Number(process.env.ISOLATION_POLICY_LOCATIONS ?? 39_000);
/** Generous bounds on a shared 2-core machine. */
const LATENCY_BOUND_MS = 1500;
const LOOP_BOUND_MS = 500;
const READERS: UserName[] = ['forwarder', 'border', 'otherForwarder', 'rotterdam'];
const POLICIES_PATH = '/supply-chain/data-space/policies';

/** `count` (at most 39,304) distinct UN/LOCODE-shaped codes of one two-letter prefix, the `tag`-th. */
function locations(count: number, tag: number): string[] {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const tail = `${letters}23456789`;
  const prefix = `${letters[tag % 26]}${letters[Math.floor(tag / 26) % 26]}`;
  return Array.from(
    { length: count },
    (_, i) => `${prefix}${tail[Math.floor(i / 1156) % 34]}${tail[Math.floor(i / 34) % 34]}${tail[i % 34]}`,
  );
}

describe('isolation: large data-sharing policies and a toggle of a tiny one', function () {
  this.timeout(300_000);
  let node: TestNode;
  // The quota on one policy's values (10,000 by default) raised: the case is an operator who allows large ones.
  before(async () => {
    node = await TestNode.start({ DATASPACE_QUOTA_POLICY_VALUES: String(LOCATIONS + 1000) });
  });
  after(async () => {
    await node.stop();
  });

  it(`B's ${POLICIES} policies of ${LOCATIONS} locations each, then a tiny one toggled, leave A's requests fast and the loop free`, async () => {
    const witness = await publishOwn(node, 'forwarder');
    const working = await publishOwn(node, 'forwarder');
    const before = await readsOf(node, witness.globalId, READERS);
    const token = await node.login('otherForwarder');
    const douane = await node.login('douane');
    const shared = await publishOwn(node, 'otherForwarder');
    const douaneReads = async () =>
      (await node.request('GET', `/supply-chain/data-space/consignments/${encodeURIComponent(shared.globalId)}`, { token: douane })).status;
    // The large registrations themselves: each commit loads its ~39k quads into the store in one piece
    // (bounded by the body limit; not yet sliced, see the read-side notes in docs/decisions.md), so
    // their stall is printed, not bounded here.
    const registering = new LoopWatch().start();
    for (let i = 0; i < POLICIES; i++) {
      const res = await node.request('POST', POLICIES_PATH, {
        token,
        body: { role: 'locationOperator', locations: locations(LOCATIONS, i) },
      });
      expect(res.status).to.equal(201);
    }
    console.log(
      `      registering ${POLICIES} policies of ${LOCATIONS} locations: longest event-loop stall ${registering.stop().toFixed(0)} ms`,
    );
    const toggled: number[] = [];
    expect(await douaneReads()).to.equal(404);
    const run = await whileNoisy(node, { user: 'forwarder', consignment: working }, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const tiny = await node.request('POST', POLICIES_PATH, { token, body: { role: 'borderAgency', countries: ['FR'] } });
        statuses.push(tiny.status);
        // Each toggle takes effect at once: the French border agency reads B's consignment, then not.
        toggled.push(await douaneReads());
        statuses.push((await node.request('DELETE', `${POLICIES_PATH}/${encodeURIComponent(tiny.body.id)}`, { token })).status);
        toggled.push(await douaneReads());
      }
      return statuses;
    });
    console.log(
      `      A's requests during B's toggles: ${run.quiet.latencies.length}, p99 ${p99(run.quiet.latencies).toFixed(0)} ms, max ${Math.max(...run.quiet.latencies).toFixed(0)} ms; longest event-loop stall ${run.maxLoopDelayMs.toFixed(0)} ms`,
    );
    expect(run.noisy.filter((s) => s >= 300)).to.deep.equal([]);
    expect(toggled).to.deep.equal([200, 404, 200, 404, 200, 404]);
    expect(run.quiet.failures).to.deep.equal([]);
    expect(p99(run.quiet.latencies)).to.be.below(LATENCY_BOUND_MS);
    expect(run.maxLoopDelayMs).to.be.below(LOOP_BOUND_MS);
    expect(await readsOf(node, witness.globalId, READERS)).to.deep.equal(before);
  });
});
