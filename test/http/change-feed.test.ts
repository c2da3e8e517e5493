import { expect } from 'chai';
import { TEST_SEED, TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { spreadMode } from '../helpers/spread-set.js';
import { activity, consignment, document, event, target } from '../helpers/payloads.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CHANGES = '/supply-chain/data-space/changes';
const POLICIES = '/supply-chain/data-space/policies';
// Activities made while the reader is away: ~10 ms each on an idle 2-core machine. Spread over a replica
// set, each is one fenced Update on the SPARQL server, made one after another (~150 ms each at load
// 15): fewer, the same rounds and policy phases, so that the set's feed is shown within the time out.
const CHANGES_WHILE_AWAY = spreadMode() ? 280 : 1000;

type Expected = [change: string, globalId: string];

const pathOf = (url: string): string => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** Walks the feed from `start` until a page comes back empty and complete; every page's items, in order. */
async function walk(node: TestNode, user: UserName, start: string): Promise<{ items: any[]; next: string; pages: number }> {
  const items: any[] = [];
  let path = pathOf(start);
  for (let pages = 1; ; pages++) {
    const res = await node.as(user, 'GET', path);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.type).to.equal('OrderedCollectionPage');
    expect(res.body.partOf).to.match(/\/supply-chain\/data-space\/changes$/);
    items.push(...res.body.orderedItems);
    path = pathOf(res.body.next);
    if (res.body.orderedItems.length === 0 && !res.body.partial) return { items, next: path, pages };
  }
}

describe('change feed: a reader that was away catches up', function () {
  this.timeout(180_000);
  let dataDir: string;
  let node: TestNode;
  let head: string;
  const expected: Expected[] = [];
  const theirs = new Set<string>();
  let midCursor: string | undefined;
  let walked: { items: any[]; next: string; pages: number };

  const publish = async (user: UserName, a: unknown) => {
    const res = await node.publish(user, a);
    expect(res.body.status, JSON.stringify(res.body)).to.equal('completed');
  };

  before(async () => {
    // A data dir of its own, so that on an external store the node starts on an empty one; restarts reuse it.
    node = await TestNode.start();
    dataDir = node.config.dataDir;
    const collection = await node.as('border', 'GET', CHANGES);
    expect(collection.body).to.include({ type: 'OrderedCollection' });
    expect(collection.body['@context']).to.deep.equal([
      'https://www.w3.org/ns/activitystreams',
      `${node.url}/contexts/dataspace-changes.jsonld`,
    ]);
    head = collection.body.last;
  });
  after(async () => {
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`sees each of ${CHANGES_WHILE_AWAY} changes it may read once, in order, with what became visible and invisible, and nothing else`, async () => {
    const ours: Record<string, any>[] = [];
    let shared = false;
    let made = 0;
    let policy: string | undefined;
    let phase = 0;
    const seen = (change: string, globalId: string) => {
      if (shared) expected.push([change, globalId]);
    };
    const grant = async () => {
      const res = await node.as('forwarder', 'POST', POLICIES, { role: 'borderAgency', countries: ['GB'] });
      expect(res.status).to.equal(201);
      policy = res.body.id;
      shared = true;
      for (const c of ours) expected.push(['became-visible', c.globalId]);
    };
    const withdraw = async () => {
      expect((await node.as('forwarder', 'DELETE', `${POLICIES}/${encodeURIComponent(policy!)}`)).status).to.equal(204);
      for (const c of ours) expected.push(['became-invisible', c.globalId]);
      shared = false;
    };
    // Rounds of: a new consignment of ours and one of another forwarder (never shared), an event, an
    // update, a document and its revision on an earlier one. The policy is granted a quarter of the
    // way, withdrawn half way, and granted again at three quarters.
    for (let round = 0; made < CHANGES_WHILE_AWAY; round++) {
      if (phase < Math.floor((4 * made) / CHANGES_WHILE_AWAY)) {
        phase++;
        if (phase === 2) await withdraw();
        else await grant();
      }
      const c = consignment();
      await publish('forwarder', activity('Create', USERS.forwarder.org, c));
      ours.push(c);
      seen('consignment-created', c.globalId);
      const other = consignment();
      await publish('otherForwarder', activity('Create', USERS.otherForwarder.org, other));
      theirs.add(other.globalId);
      await publish('otherForwarder', activity('Add', USERS.otherForwarder.org, event('svc:despatched'), target(other)));
      const earlier = ours[Math.floor(ours.length / 2)]!;
      await publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(earlier)));
      seen('event-added', earlier.globalId);
      await publish(
        'forwarder',
        activity('Update', USERS.forwarder.org, { ...earlier, summaryDescription: `Machine parts, round ${round}` }),
      );
      seen('consignment-updated', earlier.globalId);
      const doc = `INV-${round}`;
      await publish('forwarder', activity('Add', USERS.forwarder.org, document(doc), target(c)));
      seen('document-added', c.globalId);
      await publish('forwarder', activity('Add', USERS.forwarder.org, document(doc, { versionId: '2' }), target(c)));
      seen('document-revised', c.globalId);
      made += 7;
    }
    expect(phase).to.equal(3);
    expect(expected.filter(([c]) => c === 'became-invisible').length).to.be.greaterThan(0);
    expect(expected.filter(([c]) => c === 'became-visible').length).to.be.greaterThan(
      expected.filter(([c]) => c === 'became-invisible').length,
    );

    walked = await walk(node, 'border', `${head}&limit=25`);
    expect(walked.items.map((i) => [i.change, i.object.id])).to.deep.equal(expected);
    expect(walked.pages).to.be.at.least(Math.ceil(expected.length / 25));
    for (const item of walked.items) {
      expect(theirs.has(item.object.id)).to.equal(false);
      expect(item.object.url).to.match(/\/supply-chain\/data-space\/consignments\//);
      expect(item.type).to.be.oneOf(['Create', 'Update', 'Add', 'Remove']);
    }
    expect(new Set(walked.items.map((i) => i.id)).size).to.equal(walked.items.length);
    // The other forwarder sees its own consignments and none of ours.
    const other = await walk(node, 'otherForwarder', head);
    expect(new Set(other.items.map((i) => i.object.id))).to.deep.equal(theirs);
    expect(other.items.filter((i) => i.change === 'consignment-created')).to.have.length(theirs.size);
  });

  it("pages by limit, and an item's cursor resumes just after it", async () => {
    const first = await node.as('border', 'GET', `${pathOf(head)}&limit=7`);
    expect(first.body.orderedItems).to.have.length(7);
    const resumed = await walk(node, 'border', `http://x${CHANGES}?after=${first.body.orderedItems[3].cursor}`);
    expect(resumed.items.map((i) => i.id)).to.deep.equal(walked.items.slice(4).map((i) => i.id));
    midCursor = first.body.orderedItems[3].cursor;
  });

  it('refuses a cursor it did not issue and a limit out of range with 400', async () => {
    for (const bad of ['after=abc', 'after=czEyMw', 'after=x&limit=0', `after=${midCursor}&limit=100000`, 'after=a&after=b']) {
      const res = await node.as('border', 'GET', `${CHANGES}?${bad}`);
      expect(res.status, bad).to.equal(400);
      expect(res.body.name, bad).to.equal('BadRequest');
    }
    expect((await node.request('GET', CHANGES)).status).to.equal(401);
  });

  it('keeps its cursors across a restart, and goes on from where the reader stopped', async () => {
    await node.stop(false);
    node = await TestNode.start({}, dataDir);
    const again = await walk(node, 'border', `http://x${CHANGES}?after=${midCursor}`);
    expect(again.items.map((i) => i.id)).to.deep.equal(walked.items.slice(4).map((i) => i.id));
    const atEnd = await node.as('border', 'GET', walked.next);
    expect(atEnd.body.orderedItems).to.deep.equal([]);
    const c = consignment();
    await publish('forwarder', activity('Create', USERS.forwarder.org, c));
    const after = await walk(node, 'border', `http://x${walked.next}`);
    expect(after.items.map((i) => [i.change, i.object.id])).to.deep.equal([['consignment-created', c.globalId]]);
  });

  it('tells what a policy added to or removed from the seed between two runs made visible and invisible', async () => {
    const douaneEnd = (await node.as('douane', 'GET', CHANGES)).body.last as string;
    const seedDir = mkdtempSync(join(tmpdir(), 'dataspace-changes-seed-'));
    const seed = JSON.parse(readFileSync(TEST_SEED, 'utf8'));
    seed.policies = [{ owner: USERS.otherForwarder.org, role: 'borderAgency', countries: ['FR'] }];
    const withPolicy = join(seedDir, 'seed.json');
    writeFileSync(withPolicy, JSON.stringify(seed));
    try {
      await node.stop(false);
      node = await TestNode.start({ DATASPACE_SEED: withPolicy }, dataDir);
      const shown = await walk(node, 'douane', douaneEnd);
      expect(shown.items.map((i) => i.change)).to.satisfy(
        (changes: string[]) => changes.length > 0 && changes.every((c) => c === 'became-visible'),
      );
      expect(new Set(shown.items.map((i) => i.object.id))).to.deep.equal(theirs);
      // The same seed again: nothing new.
      await node.stop(false);
      node = await TestNode.start({ DATASPACE_SEED: withPolicy }, dataDir);
      expect((await walk(node, 'douane', `http://x${shown.next}`)).items).to.deep.equal([]);
      // The policy taken out of the seed: what it showed becomes invisible.
      await node.stop(false);
      node = await TestNode.start({}, dataDir);
      const hidden = await walk(node, 'douane', `http://x${shown.next}`);
      expect(hidden.items.map((i) => [i.change, i.object.id]).sort()).to.deep.equal(
        [...theirs].map((id) => ['became-invisible', id]).sort(),
      );
    } finally {
      rmSync(seedDir, { recursive: true, force: true });
    }
  });
});

describe('change feed: a policy published before any data change', function () {
  this.timeout(60_000);
  let node: TestNode;
  after(async () => {
    await node?.stop();
  });

  // Its journal entry is at number 0, which a read of the journal in ranges "after N" left out at a restart.
  it('still decides what the operator sees after a restart', async () => {
    // A data dir of its own, so that on an external store the node starts on an empty one.
    node = await TestNode.start();
    const policy = await node.as('forwarder', 'POST', '/supply-chain/data-space/policies', {
      role: 'locationOperator',
      locations: ['NLRTM'],
    });
    expect(policy.status, JSON.stringify(policy.body)).to.equal(201);
    const c = consignment();
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
    const start = (await node.as('rotterdam', 'GET', CHANGES)).body.first as string;
    const seen = (await walk(node, 'rotterdam', start)).items.map((i) => [i.change, i.object.id]);
    expect(seen).to.deep.equal([['consignment-created', c.globalId]]);
    const { dataDir } = node.config;
    await node.stop(false);
    node = await TestNode.start({}, dataDir);
    expect((await walk(node, 'rotterdam', start)).items.map((i) => [i.change, i.object.id])).to.deep.equal(seen);
  });
});
