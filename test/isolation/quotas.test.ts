import { expect } from 'chai';
import { activity, consignment, event, target } from '../helpers/payloads.js';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { p99, publishOwn, readsOf, whileNoisy } from './neighbours.js';

/** Generous bounds on A's requests and the event loop's longest stall, on a shared 2-core machine. */
const LATENCY_BOUND_MS = 1500;
const LOOP_BOUND_MS = 500;
const POLICIES = '/supply-chain/data-space/policies';
const MATCH = 'svc:locationOperatorMatch';
const READERS: UserName[] = ['forwarder', 'border', 'otherForwarder'];

/** Small quotas, so each bound is reached in a few requests. */
const QUOTAS = {
  DATASPACE_QUOTA_POLICIES: '2',
  DATASPACE_QUOTA_POLICY_VALUES: '50',
  DATASPACE_QUOTA_CONTRIBUTOR_GRAPHS: '4',
  DATASPACE_QUOTA_CONTRIBUTOR_BYTES: '400000',
  DATASPACE_QUOTA_CONTRIBUTIONS: '6',
};

const letter = (i: number): string => String.fromCharCode(65 + (i % 26));
/** `n` distinct UN/LOCODEs in GB. */
const locations = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `GB${letter(i)}${letter(Math.floor(i / 26))}${letter(Math.floor(i / 676))}`);

function expectRefusal(res: { status: number; body: any }, status: number, name: string, mentions: RegExp): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.have.keys('name', 'message');
  expect(res.body.name).to.equal(name);
  expect(res.body.message).to.match(mentions);
}

describe('isolation: every organisation has a share and a quota', function () {
  this.timeout(180_000);
  let node: TestNode;
  before(async () => {
    node = await TestNode.start(QUOTAS);
  });
  after(async () => {
    await node?.stop();
  });

  it("B's policies stop at B's quota (507) and at the values one may name (413); A publishes on, and the counts survive a restart", async () => {
    // A lets GB border agencies read its consignments: one of A's 2 policies.
    expect((await node.as('forwarder', 'POST', POLICIES, { role: 'borderAgency', countries: ['GB'] })).status).to.equal(201);
    const witness = await publishOwn(node, 'forwarder');
    const working = await publishOwn(node, 'forwarder');
    const before = await readsOf(node, witness.globalId, READERS);
    const run = await whileNoisy(node, { user: 'forwarder', consignment: working }, async () => {
      const answers = [];
      answers.push(await node.as('otherForwarder', 'POST', POLICIES, { role: 'locationOperator', locations: locations(60) }));
      for (let i = 0; i < 3; i += 1)
        answers.push(await node.as('otherForwarder', 'POST', POLICIES, { role: 'locationOperator', locations: locations(50) }));
      return answers;
    });
    const [tooMany, first, second, third] = run.noisy;
    expectRefusal(tooMany!, 413, 'PayloadTooLarge', /60 .*at most 50 \(DATASPACE_QUOTA_POLICY_VALUES\)/);
    expect([first!.status, second!.status]).to.deep.equal([201, 201]);
    expectRefusal(third!, 507, 'QuotaExceeded', /quota of 2 data-sharing policies .*DATASPACE_QUOTA_POLICIES.*Nothing was stored/);
    expect((await node.as('otherForwarder', 'GET', POLICIES)).body).to.have.length(2);
    // A's quota is its own: B's full quota does not touch A's policies (A's second lets operators on
    // the route read, and match, A's consignments: the next case uses it).
    expect((await node.as('forwarder', 'POST', POLICIES, { role: 'locationOperator', locations: ['GBFXT', 'NLRTM'] })).status).to.equal(
      201,
    );
    expect(run.quiet.failures).to.deep.equal([]);
    expect(p99(run.quiet.latencies)).to.be.below(LATENCY_BOUND_MS);
    expect(run.maxLoopDelayMs).to.be.below(LOOP_BOUND_MS);

    // The totals are written with each commit and read back at start, not counted again.
    const dataDir = node.config.dataDir;
    await node.stop(false);
    node = await TestNode.start(QUOTAS, dataDir);
    expectRefusal(
      await node.as('otherForwarder', 'POST', POLICIES, { role: 'borderAgency', countries: ['NL'] }),
      507,
      'QuotaExceeded',
      /DATASPACE_QUOTA_POLICIES/,
    );
    // A withdrawal gives its place back.
    expect(
      (await node.as('otherForwarder', 'DELETE', `${POLICIES}/${encodeURIComponent((second!.body as { id: string }).id)}`)).status,
    ).to.equal(204);
    expect((await node.as('otherForwarder', 'POST', POLICIES, { role: 'borderAgency', countries: ['NL'] })).status).to.equal(201);
    expect(await readsOf(node, witness.globalId, READERS)).to.deep.equal(before);
  });

  it("location operators' events on A's consignment stop at the consignment's bounds; the owner adds on and its views stay small", async () => {
    // Operators on the route may read, and so match, A's consignments: A's policy of the case before.
    const witness = await publishOwn(node, 'forwarder');
    const working = await publishOwn(node, 'forwarder');
    const target1 = await publishOwn(node, 'forwarder');
    const target2 = await publishOwn(node, 'forwarder');
    const before = await readsOf(node, witness.globalId, READERS);
    const add = (user: UserName, c: Record<string, any>, e: Record<string, unknown>) =>
      node.publish(user, activity('Add', USERS[user].org, e, target(c)));
    const big = (kb: number) =>
      event(MATCH, { occurrenceLocation: { type: 'LogisticsLocation', name: 'x'.repeat(kb * 1024), UNLocode: 'GBFXT' } });
    const run = await whileNoisy(node, { user: 'forwarder', consignment: working }, async () => {
      const port = [];
      for (let i = 0; i < 5; i += 1) port.push(await add('port', target1, event(MATCH)));
      const rotterdam = [];
      for (let i = 0; i < 3; i += 1) rotterdam.push(await add('rotterdam', target1, event(MATCH)));
      const large = [];
      for (let i = 0; i < 3; i += 1) large.push(await add('port', target2, big(300)));
      return { port, rotterdam, large };
    });
    // One operator: 4 events (DATASPACE_QUOTA_CONTRIBUTOR_GRAPHS), then 507.
    expect(run.noisy.port.slice(0, 4).map((r) => r.status)).to.deep.equal([201, 201, 201, 201]);
    expectRefusal(
      run.noisy.port[4]!,
      507,
      'QuotaExceeded',
      /This consignment has reached its bound of 4 events one other organisation added to one consignment \(DATASPACE_QUOTA_CONTRIBUTOR_GRAPHS\)/,
    );
    // Every operator together: 6 (DATASPACE_QUOTA_CONTRIBUTIONS).
    expect(run.noisy.rotterdam.slice(0, 2).map((r) => r.status)).to.deep.equal([201, 201]);
    expectRefusal(
      run.noisy.rotterdam[2]!,
      507,
      'QuotaExceeded',
      /bound of 6 events other organisations added .*DATASPACE_QUOTA_CONTRIBUTIONS/,
    );
    // Bytes: one 300 KiB event fits in 400,000 bytes, a second does not.
    expect(run.noisy.large[0]!.status, run.noisy.large[0]!.text).to.equal(201);
    expectRefusal(run.noisy.large[1]!, 507, 'QuotaExceeded', /DATASPACE_QUOTA_CONTRIBUTOR_BYTES/);
    expectRefusal(run.noisy.large[2]!, 507, 'QuotaExceeded', /DATASPACE_QUOTA_CONTRIBUTOR_BYTES/);
    expect(run.quiet.failures).to.deep.equal([]);
    expect(p99(run.quiet.latencies)).to.be.below(LATENCY_BOUND_MS);
    expect(run.maxLoopDelayMs).to.be.below(LOOP_BOUND_MS);

    // The owner's own additions have their own bound: the operators' full share does not stop them.
    expect((await add('forwarder', target1, event('svc:despatched'))).status).to.equal(201);
    const view = await node.as('forwarder', 'GET', `/supply-chain/data-space/consignments/${encodeURIComponent(target1.globalId)}`);
    expect(view.status).to.equal(200);
    expect(view.body.events).to.have.length(7);
    const large = await node.as('forwarder', 'GET', `/supply-chain/data-space/consignments/${encodeURIComponent(target2.globalId)}`);
    expect(large.status).to.equal(200);
    expect(large.text.length).to.be.below(400_000);
    expect(await readsOf(node, witness.globalId, READERS)).to.deep.equal(before);

    // The tallies are read back after a restart, each once (the first of each was written without a delete).
    const dataDir = node.config.dataDir;
    await node.stop(false);
    node = await TestNode.start(QUOTAS, dataDir);
    expectRefusal(await add('port', target1, event(MATCH)), 507, 'QuotaExceeded', /DATASPACE_QUOTA_CONTRIBUTOR_GRAPHS/);
    expectRefusal(await add('rotterdam', target1, event(MATCH)), 507, 'QuotaExceeded', /DATASPACE_QUOTA_CONTRIBUTIONS/);
    expect((await add('forwarder', target1, event('svc:despatched'))).status).to.equal(201);
  });

  it('the capacity guard covers policies and notification endpoints, not the inbox alone', async () => {
    const full = await TestNode.start({ ...QUOTAS, DATASPACE_MAX_QUADS: '1' });
    try {
      expectRefusal(
        await full.as('forwarder', 'POST', POLICIES, { role: 'borderAgency', countries: ['GB'] }),
        507,
        'InsufficientStorage',
        /DATASPACE_MAX_QUADS/,
      );
      expectRefusal(
        await full.as('forwarder', 'PUT', '/supply-chain/data-space/notification-endpoint', { url: 'https://hooks.example/x' }),
        507,
        'InsufficientStorage',
        /DATASPACE_MAX_QUADS/,
      );
      expectRefusal(
        await full.publish('forwarder', activity('Create', USERS.forwarder.org, consignment())),
        507,
        'InsufficientStorage',
        /DATASPACE_MAX_QUADS/,
      );
      // Reads go on.
      expect((await full.as('forwarder', 'GET', POLICIES)).status).to.equal(200);
    } finally {
      await full.stop();
    }
  });
});
