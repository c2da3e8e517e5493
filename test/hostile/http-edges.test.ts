import { expect } from 'chai';
import { readdirSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { TestNode } from '../helpers/test-node.js';
import { rawRequest, SERVING_BOUND_MS, timedRead } from './serving.js';

const INBOX = '/supply-chain/data-space/inbox';

describe('hostile HTTP edges', function () {
  this.timeout(30_000);

  describe('malformed requests', () => {
    let node: TestNode;
    let token: string;
    before(async () => {
      node = await TestNode.start();
      token = await node.login('forwarder');
    });
    after(() => node.stop());

    const post = (headers: Record<string, string>, body: string | Buffer, path = INBOX) =>
      rawRequest(node.url, { method: 'POST', path, headers: { authorization: `Bearer ${token}`, ...headers }, body });

    const cases: [string, () => Promise<{ status: number; body: any; headers: any }>, number][] = [
      [
        'Content-Encoding: deflate with a body that is not deflate',
        () => post({ 'content-type': 'application/json', 'content-encoding': 'deflate' }, 'not deflate at all'),
        400,
      ],
      [
        'Content-Encoding: gzip with a body that is not gzip',
        () => post({ 'content-type': 'application/json', 'content-encoding': 'gzip' }, Buffer.from([0x1f, 0x8b, 1, 2, 3, 4])),
        400,
      ],
      [
        'Content-Encoding: deflate whose JSON is cut short',
        () => post({ 'content-type': 'application/json', 'content-encoding': 'deflate' }, deflateSync('{"type":').subarray(0, 6)),
        400,
      ],
      ['an unknown Content-Encoding', () => post({ 'content-type': 'application/json', 'content-encoding': 'zstd-nonsense' }, '{}'), 415],
      [
        '%ZZ in a path parameter',
        () => rawRequest(node.url, { path: '/supply-chain/data-space/consignments/%ZZ', headers: { authorization: `Bearer ${token}` } }),
        400,
      ],
      [
        '%ZZ in a deliveries path',
        () =>
          rawRequest(node.url, {
            path: '/supply-chain/data-space/consignments/a%ZZb/deliveries',
            headers: { authorization: `Bearer ${token}` },
          }),
        400,
      ],
      ['a Content-Type that does not parse', () => post({ 'content-type': ';;;/' }, '{}'), 415],
      ['an unknown charset', () => post({ 'content-type': 'application/json; charset=klingon' }, '{}'), 415],
      [
        'a __proto__ key',
        () => post({ 'content-type': 'application/json' }, '{"type":"Create","actor":{},"object":{"__proto__":{"polluted":1}}}'),
        422,
      ],
      [
        'a constructor key in the login body',
        () =>
          post(
            { 'content-type': 'application/json' },
            '{"email":"a@b.c","password":"x","constructor":{"prototype":{}}}',
            '/authentication/login',
          ),
        422,
      ],
      [
        'a lone surrogate in a value',
        () => post({ 'content-type': 'application/json' }, '{"type":"Create","actor":{},"object":{"summaryDescription":"x\\ud800y"}}'),
        422,
      ],
      [
        'a lone surrogate in a key',
        () => post({ 'content-type': 'application/json' }, '{"type":"Create","actor":{},"object":{"\\udc00":"x"}}'),
        422,
      ],
    ];
    for (const [name, send, status] of cases) {
      it(`answers ${status} with {name, message} for ${name}, and keeps serving`, async () => {
        const res = await send();
        expect(res.status, JSON.stringify(res.body)).to.equal(status);
        expect(res.body).to.include.keys('name', 'message');
        expect(res.headers['x-content-type-options']).to.equal('nosniff');
        expect(res.headers['cache-control']).to.equal('no-store');
        const read = await timedRead(node);
        expect(read.status).to.equal(200);
        expect(read.ms).to.be.below(SERVING_BOUND_MS);
      });
    }

    it('names the problem of a __proto__ key and a lone surrogate', async () => {
      const proto = await post({ 'content-type': 'application/json' }, '{"type":"Create","actor":{},"object":{"__proto__":{}}}');
      expect(proto.body.message).to.contain('__proto__');
      const lone = await post({ 'content-type': 'application/json' }, '{"type":"Create","actor":{},"object":{"a":"\\ud800"}}');
      expect(lone.body.message).to.contain('surrogate');
      expect(lone.body.message).to.contain('$.object.a');
    });

    it('answers a request line Node cannot parse with 400 and a JSON body', async () => {
      const text = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(node.url).port), '127.0.0.1');
        let data = '';
        socket.on('data', (c) => {
          data += c.toString();
        });
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
        socket.write('GET / HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
      });
      expect(text).to.match(/^HTTP\/1\.1 400/);
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).to.have.keys('name', 'message');
    });

    it('sends nosniff and no-store on API JSON answers', async () => {
      const res = await node.as('forwarder', 'GET', '/supply-chain/data-space/consignments?limit=1');
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(res.headers.get('cache-control')).to.equal('no-store');
    });
  });

  describe('idle connections', () => {
    let node: TestNode;
    before(async () => {
      node = await TestNode.start({
        DATASPACE_HTTP_MAX_CONNECTIONS: '50',
        DATASPACE_HTTP_HEADERS_TIMEOUT_MS: '800',
        DATASPACE_HTTP_CHECK_INTERVAL_MS: '100',
      });
      await node.login('otherForwarder');
    });
    after(() => node.stop());

    it('holds at most the configured connections for 300 idle sockets, closes idle ones after the headers timeout, and serves again', async function () {
      // Connections past the cap wait in the kernel's backlog and are taken in turns of 50, each held until
      // its headers timeout: several rounds, slower on a busy machine. A connection whose SYN the kernel
      // dropped is retried by the client after 1, 3, 7, 15 and 31 s, so the last one may come late.
      this.timeout(90_000);
      const port = Number(new URL(node.url).port);
      const sockets: Socket[] = [];
      const answers = new Map<Socket, string>();
      let closed = 0;
      await Promise.all(
        Array.from(
          { length: 300 },
          () =>
            new Promise<void>((ok) => {
              const s = connect(port, '127.0.0.1', () => ok());
              s.on('error', () => ok());
              s.on('close', () => {
                closed++;
              });
              s.on('data', (chunk: Buffer) => answers.set(s, (answers.get(s) ?? '') + chunk.toString()));
              sockets.push(s);
            }),
        ),
      );
      await new Promise((ok) => setTimeout(ok, 200));
      const open = await new Promise<number>((ok, fail) => node.server.getConnections((e, n) => (e ? fail(e) : ok(n))));
      expect(open).to.be.at.most(50);
      // Idle sockets sent no head: answered 408 and closed once the headers timeout (800 ms) passes;
      // polled, the machine is shared. Under load in CI a few sockets (29 of 300, once) had the whole
      // 408 answer and the server had let them go, yet their end never reached the client: let go is
      // what the server owes, so a socket holding its whole answer counts.
      const answered408 = (s: Socket) => /^HTTP\/1\.1 408 [^]*\r\n\r\n\{[^]*\}$/.test(answers.get(s) ?? '');
      const letGo = () => sockets.filter((s) => s.destroyed || answered408(s)).length;
      const held = () => new Promise<number>((ok, fail) => node.server.getConnections((e, n) => (e ? fail(e) : ok(n))));
      const started = Date.now();
      while ((letGo() < 300 || (await held()) > 0) && Date.now() - started < 60_000) await new Promise((ok) => setTimeout(ok, 100));
      const still = await held();
      const stuck = sockets
        .filter((s) => !s.destroyed && !answered408(s))
        .map((s) => `${s.readyState} port ${s.localPort} read ${s.bytesRead}`);
      expect(letGo(), `server holds ${still}; client sockets neither closed nor answered: ${stuck.join('; ')} (${closed} closed)`).to.equal(
        300,
      );
      expect(still).to.equal(0);
      const read = await timedRead(node);
      expect(read.status).to.equal(200);
      expect(read.ms).to.be.below(SERVING_BOUND_MS);
      for (const s of sockets) s.destroy();
    });
  });

  describe('files holding secrets', () => {
    it('creates the JWT secret, the change log and the data dir readable by the owner only', async () => {
      const node = await TestNode.start({ JWT_SECRET: '' });
      try {
        await node.login('forwarder');
        const dir = node.config.dataDir;
        const files = ['jwt-secret', ...readdirSync(dir).filter((f) => /log|wal/i.test(f))].map((f) => join(dir, f));
        expect(files.length).to.be.at.least(2);
        for (const f of files) {
          if (statSync(f).isFile()) expect(statSync(f).mode & 0o077, f).to.equal(0);
        }
      } finally {
        await node.stop();
      }
    });
  });
});
