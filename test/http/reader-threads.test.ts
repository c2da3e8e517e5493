import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';

const FIXTURES = join(projectRoot, 'test', 'fixtures');
const INBOX = '/supply-chain/data-space/inbox';
const read = (dir: string) =>
  readdirSync(join(FIXTURES, dir))
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f, JSON.parse(readFileSync(join(FIXTURES, dir, f), 'utf8'))] as const);

describe('payloads read on threads of their own (DATASPACE_READER_THREADS)', () => {
  let inline: TestNode;
  let threaded: TestNode;
  before(async () => {
    inline = await TestNode.start();
    threaded = await TestNode.start({ DATASPACE_READER_THREADS: '2' });
  });
  after(async () => {
    await inline.stop();
    await threaded.stop();
  });

  it('refuses every invalid fixture exactly as the inline reader does: same status, same body', async () => {
    for (const [name, body] of read('invalid')) {
      const [a, b] = await Promise.all([inline.publish('forwarder', body), threaded.publish('forwarder', body)]);
      expect(b.status, name).to.equal(a.status);
      expect(b.body, name).to.deep.equal(a.body);
    }
  });

  it('accepts every valid fixture as the inline reader does', async () => {
    for (const [name, body] of read('valid')) {
      const a = await inline.publish('forwarder', body);
      const b = await threaded.publish('forwarder', body);
      expect(b.status, name).to.equal(a.status);
      expect(b.body.status, name).to.equal(a.body.status);
      expect(
        (b.body.tasks ?? []).map((t: any) => t.error ?? null),
        name,
      ).to.deep.equal((a.body.tasks ?? []).map((t: any) => t.error ?? null));
    }
  });

  it('reads many activities at once, each answered with its own outcome', async () => {
    // 32 at once: as many as one organisation may have waiting (DATASPACE_READER_QUEUE_PER_ORG), so
    // none is refused however slowly the two threads read; past that bound the 429 is the answer.
    const items = Array.from({ length: 32 }, (_, i) => (i % 4 === 3 ? consignment({ globalId: 'not-a-uuid' }) : consignment()));
    const answers = await Promise.all(items.map((c) => threaded.publish('forwarder', activity('Create', USERS.forwarder.org, c))));
    answers.forEach((res, i) => expect(res.status, String(i)).to.equal(i % 4 === 3 ? 422 : 201));
  });

  it('stores what it read: the view of a consignment published through the threads', async () => {
    const c = consignment();
    const res = await threaded.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    expect(res.status).to.equal(201);
    const view = await threaded.as('forwarder', 'GET', `/supply-chain/data-space/consignments/${encodeURIComponent(c.globalId)}`);
    expect(view.status).to.equal(200);
    expect(view.body.consignor.name).to.equal(c.consignor.name);
  });

  it('answers refusals of hostile JSON-LD with the same error family', async () => {
    const stray = activity('Create', USERS.forwarder.org, {
      ...consignment(),
      '@included': [{ '@id': 'urn:x:2', 'https://vocabulary.uncefact.org/name': 'x' }],
    });
    const res = await threaded.as('forwarder', 'POST', INBOX, stray);
    expect(res.status).to.equal(422);
    expect(res.body).to.have.keys('name', 'message', 'properties');
    expect(res.body.properties).to.deep.equal({ strayTriples: 1 });
  });
});
