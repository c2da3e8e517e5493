import { expect } from 'chai';
import { activity, event, target } from '../helpers/payloads.js';
import { TestNode, USERS } from '../helpers/test-node.js';
import { publishOwn } from './neighbours.js';

const CHANGES = '/supply-chain/data-space/changes';
const CONSIGNMENTS = '/supply-chain/data-space/consignments';
const WRITES = 6;

type Json = Record<string, any>;

/** The cursor inside a feed link (`…?after=<cursor>`) or a list's `Link: <…?cursor=<cursor>>; rel="next"`. */
const cursorOf = (link: string, name: string): string => new URL(link.replace(/^<|>.*$/g, ''), 'http://x').searchParams.get(name)!;
/** Whether a cursor's bytes are text: a position in clear (`s41`, `c1.41.0.0`, `f1.…`) is, a sealed one is not. */
const clear = (cursor: string): boolean => /^[\x20-\x7e]*$/.test(Buffer.from(cursor, 'base64url').toString('latin1'));

/**
 * Positions reveal nothing of others: the change feed's `last` and cursors and the lists' cursors are
 * sealed under a node key, so a participant that may read nothing of A's can neither count A's writes
 * nor tell when they happened, and what its own feed shows after its position is the same whether A
 * wrote or not.
 */
describe("isolation: positions count and time no one's writes", function () {
  this.timeout(120_000);
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  it('gives a reader that sees nothing of A the same feed whether A wrote or not, and a `last` that never compares', async () => {
    const feedOf = async () => (await node.as('douane', 'GET', CHANGES)).body as Json;
    const first = await feedOf();
    const again = await feedOf();
    // One position, two answers: sealed with a fresh nonce each time, they do not compare.
    expect(cursorOf(first.last, 'after')).to.not.equal(cursorOf(again.last, 'after'));
    const own = await publishOwn(node, 'forwarder');
    for (let i = 1; i < WRITES; i++)
      expect((await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(own)))).status).to.equal(
        201,
      );
    const later = await feedOf();
    for (const feed of [first, again, later]) {
      const cursor = cursorOf(feed.last, 'after');
      expect(clear(cursor)).to.equal(false);
      expect(cursor.length).to.equal(cursorOf(first.last, 'after').length);
      // After its position, the reader's feed holds nothing: none of A's writes shows, not even as a gap.
      const page = await node.as('douane', 'GET', `${CHANGES}?after=${cursor}`);
      expect(page.status).to.equal(200);
      expect(page.body.orderedItems).to.deep.equal([]);
    }
  });

  it('seals list cursors and refuses any other with 400 {name, message}', async () => {
    for (let i = 0; i < 3; i++) await publishOwn(node, 'otherForwarder');
    const res = await node.as('otherForwarder', 'GET', `${CONSIGNMENTS}?limit=1`);
    expect(res.status).to.equal(200);
    const cursor = cursorOf(res.headers.get('link')!, 'cursor');
    expect(clear(cursor)).to.equal(false);
    const next = await node.as('otherForwarder', 'GET', `${CONSIGNMENTS}?limit=1&cursor=${cursor}`);
    expect(next.status).to.equal(200);
    const filtered = await node.as('otherForwarder', 'GET', `${CONSIGNMENTS}?limit=1&scope=own`);
    expect(clear(cursorOf(filtered.headers.get('link')!, 'cursor'))).to.equal(false);
    const tampered = `${cursor.slice(0, 20)}${cursor[20] === 'A' ? 'B' : 'A'}${cursor.slice(21)}`;
    const plain = Buffer.from('s1', 'utf8').toString('base64url');
    const plainFeed = Buffer.from('c1.1.0.0', 'utf8').toString('base64url');
    for (const [path, bad] of <[string, string][]>[
      [CONSIGNMENTS, `?cursor=${tampered}`],
      [CONSIGNMENTS, `?cursor=${plain}`],
      [CONSIGNMENTS, `?cursor=${'A'.repeat(5000)}`],
      [CHANGES, `?after=${plainFeed}`],
      [CHANGES, `?after=${cursorOf(res.headers.get('link')!, 'cursor')}x`],
    ]) {
      const answer = await node.as('otherForwarder', 'GET', `${path}${bad}`);
      expect(answer.status, `${path}${bad.slice(0, 40)}`).to.equal(400);
      expect(answer.body).to.have.keys(['name', 'message']);
    }
  });
});
