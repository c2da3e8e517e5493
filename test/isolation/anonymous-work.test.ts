import { expect } from 'chai';
import { connect } from 'node:net';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';

const BODY_TIMEOUT_MS = 1000;
const BURST_PER_USER = 20;
const BURST_USERS: UserName[] = ['forwarder', 'border', 'port'];

/** Sends a request head and part of its body, then nothing: answers what came back and when. */
function slowBody(url: string, path: string, contentType: string): Promise<{ text: string; ms: number }> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((done, fail) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: ${contentType}\r\nContent-Length: 200\r\n\r\n{"email":`);
    });
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('close', () => done({ text, ms: performance.now() - started }));
    socket.on('error', fail);
    // Far below the whole-request time-out (120 s): the body time-out must have ended it by then.
    socket.setTimeout(15_000, () => socket.destroy());
  });
}

/** Anonymous work is cheap and short: unauthenticated bodies have the body time-out, and correct logins never lock anyone. */
describe('isolation: anonymous work is cheap and short', function () {
  this.timeout(120_000);
  let node: TestNode;
  before(async () => {
    // Hash slots and their queue wide enough that the burst meets the login counters, not the 503 of the queue.
    node = await TestNode.start({ DATASPACE_HTTP_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS), DATASPACE_LOGIN_SCRYPT_QUEUE: '200' });
  });
  after(async () => {
    await node.stop();
  });

  for (const [path, type] of [
    ['/authentication/login', 'application/json'],
    ['/authentication/token', 'application/x-www-form-urlencoded'],
  ]) {
    it(`answers a slow anonymous body on ${path} 408 within the body time-out and closes it`, async () => {
      const { text, ms } = await slowBody(node.url, path!, type!);
      expect(text).to.match(/^HTTP\/1\.1 408 /);
      expect(text).to.contain('RequestTimeout');
      expect(ms).to.be.within(BODY_TIMEOUT_MS - 100, BODY_TIMEOUT_MS + 5000);
    });
  }

  it(`lets ${BURST_PER_USER * BURST_USERS.length} correct logins of ${BURST_USERS.length} users from one address in, locking no one`, async () => {
    const login = (user: UserName) =>
      node.request('POST', '/authentication/login', { body: { email: USERS[user].email, password: USERS[user].password } });
    const statuses: number[] = [];
    const retryAfters = new Set<string>();
    await Promise.all(
      BURST_USERS.flatMap((user) =>
        Array.from({ length: BURST_PER_USER }, async () => {
          // A refused login is retried as its Retry-After says, a bounded number of times.
          for (let tries = 0; tries < 60; tries++) {
            const res = await login(user);
            statuses.push(res.status);
            if (res.status !== 429) return;
            retryAfters.add(res.headers.get('retry-after') ?? '');
            await new Promise((ok) => setTimeout(ok, Number(res.headers.get('retry-after')) * 1000));
          }
        }),
      ),
    );
    console.log(
      `      ${statuses.filter((s) => s === 200).length} logged in, ${statuses.filter((s) => s === 429).length} asked to retry (Retry-After ${[...retryAfters].join(', ') || '-'})`,
    );
    expect(statuses.filter((s) => s !== 200 && s !== 429)).to.deep.equal([]);
    expect(statuses.filter((s) => s === 200)).to.have.length(BURST_PER_USER * BURST_USERS.length);
    // Only the excess in flight was turned away, for a second: nothing counted as a failure.
    expect([...retryAfters].filter((r) => r !== '1')).to.deep.equal([]);
    for (const user of BURST_USERS) expect((await login(user)).status).to.equal(200);
    // Failures still count: ten wrong passwords for one account from this address lock that pair.
    const wrong = async () =>
      node.request('POST', '/authentication/login', { body: { email: USERS.douane.email, password: 'wrong-password' } });
    for (let i = 0; i < 10; i++) expect((await wrong()).status).to.equal(401);
    const locked = await wrong();
    expect(locked.status).to.equal(429);
    expect(Number(locked.headers.get('retry-after'))).to.be.above(60);
  });
});
