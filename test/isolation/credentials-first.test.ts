import { expect } from 'chai';
import { connect } from 'node:net';
import { TestNode, type UserName } from '../helpers/test-node.js';
import { p99, publishOwn, readsOf, whileNoisy } from './neighbours.js';

/**
 * Generous: the 16 noisy clients run in this process too (fetch writes their 30 MB), on a shared
 * 2-core machine; reading and parsing the bodies first took A's reads to 0.5-2.3 s on an idle one.
 */
const LATENCY_BOUND_MS = 2000;
const LOOP_BOUND_MS = 500;
const INBOX = '/supply-chain/data-space/inbox';
const READERS: UserName[] = ['forwarder', 'border', 'otherForwarder'];

const bodies = new Map<number, Buffer>();
/** `n` bytes of a JSON body's start, made once per size. */
const body = (n: number): Buffer => {
  let bytes = bodies.get(n);
  if (!bytes)
    bodies.set(n, (bytes = Buffer.from(`{"type":"Create","object":{"padding":"${'x'.repeat(Math.max(0, n - 40))}"}}`.slice(0, n))));
  return bytes;
};

interface RawAnswer {
  status: number;
  body: any;
  /** From the request's first byte to the answer's end (the server closed the connection). */
  ms: number;
  closed: boolean;
}

/**
 * Sends a request head announcing `announced` body bytes and then only `sent` of them, and waits for
 * the answer and, `untilClosed`, for the server to close the connection (at most `waitMs`).
 */
function partialBody(
  node: TestNode,
  headers: Record<string, string>,
  announced: number,
  sent: number,
  untilClosed = true,
  waitMs = 10_000,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(node.url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      finish(false);
    }, waitMs);
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0);
      let parsed: unknown = body;
      try {
        parsed = JSON.parse(body);
      } catch {
        /* not JSON */
      }
      resolve({ status, body: parsed, ms: performance.now() - started, closed });
    };
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      // Or only until the answer is whole: a body that arrived whole keeps its connection alive.
      const [head, rest] = text.split('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(head ?? '')?.[1] ?? NaN);
      if (!untilClosed && rest !== undefined && Buffer.byteLength(rest) >= length) {
        socket.destroy();
        finish(false);
      }
    });
    socket.on('close', () => finish(true));
    // The server may close while the rest of a refused body is still being written: the answer counts.
    socket.on('error', (error) => {
      if (!text) reject(error);
    });
    const lines = Object.entries({
      host: `${hostname}:${port}`,
      'content-type': 'application/json',
      'content-length': String(announced),
      ...headers,
    }).map(([k, v]) => `${k}: ${v}`);
    socket.write(`POST ${INBOX} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    socket.write(body(sent));
  });
}

describe('isolation: credentials before bodies', function () {
  this.timeout(120_000);
  let node: TestNode;
  before(async () => {
    node = await TestNode.start({ DATASPACE_HTTP_BODY_TIMEOUT_MS: '2000' });
  });
  after(async () => {
    await node.stop();
  });

  it('16 connections posting 480 KB bodies without credentials get 401 from the head; A reads and publishes on', async () => {
    const witness = await publishOwn(node, 'forwarder');
    const working = await publishOwn(node, 'forwarder');
    const before = await readsOf(node, witness.globalId, READERS);
    const size = 480 * 1024;
    // Sent on sockets of their own, as other clients' would be, not through A's connection pool.
    const run = await whileNoisy(node, { user: 'forwarder', consignment: working }, async () => {
      const answers: { status: number; name: unknown }[] = [];
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let i = 0; i < 4; i += 1) {
            const res = await partialBody(node, {}, size, size, false);
            answers.push({ status: res.status, name: res.body?.name });
          }
        }),
      );
      return answers;
    });
    console.log(
      `      A's p99 ${p99(run.quiet.latencies).toFixed(0)} ms over ${run.quiet.latencies.length} requests; loop max ${run.maxLoopDelayMs.toFixed(0)} ms`,
    );
    expect(run.noisy).to.have.length(64);
    expect(run.noisy.filter((a) => a.status !== 401 || a.name !== 'UnauthorizedError')).to.deep.equal([]);
    expect(run.quiet.failures).to.deep.equal([]);
    expect(p99(run.quiet.latencies)).to.be.below(LATENCY_BOUND_MS);
    expect(run.maxLoopDelayMs).to.be.below(LOOP_BOUND_MS);
    expect(await readsOf(node, witness.globalId, READERS)).to.deep.equal(before);
  });

  it('answers 401 to a head announcing 480 KB without waiting for the body, then closes the connection', async () => {
    const heads: Record<string, string>[] = [{}, { 'content-encoding': 'gzip' }, { authorization: 'Bearer not-a-token' }];
    for (const headers of heads) {
      const answer = await partialBody(node, headers, 480 * 1024, 10);
      expect(answer.status, JSON.stringify(headers)).to.equal(401);
      expect(answer.body).to.have.keys('name', 'message');
      expect(answer.body.name).to.equal('UnauthorizedError');
      expect(answer.closed).to.equal(true);
      // Had the body been awaited, the answer would come at the body time-out or later.
      expect(answer.ms).to.be.below(1500);
    }
  });

  it('gives a slow body from an authenticated client 408 at DATASPACE_HTTP_BODY_TIMEOUT_MS, not at the whole-request time-out', async () => {
    const token = await node.login('forwarder');
    const answer = await partialBody(node, { authorization: `Bearer ${token}` }, 2000, 10);
    expect(answer.status).to.equal(408);
    expect(answer.body).to.deep.equal({
      name: 'RequestTimeout',
      message: 'The request body did not arrive within 2000 ms (DATASPACE_HTTP_BODY_TIMEOUT_MS)',
    });
    expect(answer.closed).to.equal(true);
    expect(answer.ms).to.be.within(1900, 8000);
    // The node serves the same client at once afterwards.
    expect((await node.request('GET', '/supply-chain/data-space/consignments', { token })).status).to.equal(200);
  });
});
