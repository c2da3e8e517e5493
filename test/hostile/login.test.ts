import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';
import { rawRequest, SERVING_BOUND_MS, timedRead } from './serving.js';
import { nth } from '../helpers/present.js';

const LOGIN = '/authentication/login';
// A full collection before measuring the heap, without asking mocha to start node with --expose-gc.
setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
const login = (node: TestNode, email: string, password: string, localAddress?: string) =>
  rawRequest(node.url, {
    method: 'POST',
    path: LOGIN,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
    localAddress,
  });

describe('hostile logins', function () {
  this.timeout(30_000);

  describe('field lengths and spraying', () => {
    let node: TestNode;
    before(async () => {
      node = await TestNode.start({ DATASPACE_LOGIN_ADDRESS_FAILURES: '20' });
      await node.login('otherForwarder');
      await node.login('forwarder');
    });
    after(() => node.stop());

    it('answers 413 to 150 logins with a 900 KB email without reading or keeping them, and keeps serving', async () => {
      const email = `${'a'.repeat(900 * 1024)}@x.example`;
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      for (let i = 0; i < 150; i += 15) {
        const answers = await Promise.all(Array.from({ length: 15 }, () => login(node, email, 'x')));
        for (const a of answers) {
          expect(a.status).to.equal(413);
          expect(a.body.name).to.equal('PayloadTooLarge');
          expect(a.body.message).to.contain('email ≤ 254');
        }
      }
      // The node runs in this process: 150 kept emails would be ~135 MB of string.
      gc();
      expect(process.memoryUsage().heapUsed - heapBefore).to.be.below(20 * 1024 * 1024);
      const read = await timedRead(node);
      expect(read.status).to.equal(200);
      expect(read.ms).to.be.below(SERVING_BOUND_MS);
    });

    it('answers 400 to a 255-character email', async () => {
      const a = await login(node, `${'e'.repeat(245)}@x.example`, 'x');
      expect(a.status).to.equal(400);
      expect(a.body).to.deep.equal({ name: 'BadRequest', message: 'email must be at most 254 characters' });
    });

    it('answers 400 to a 401-character password', async () => {
      const a = await login(node, USERS.border.email, 'p'.repeat(401));
      expect(a.status).to.equal(400);
      expect(a.body).to.have.keys('name', 'message');
    });

    it('throttles 24 clients spraying distinct emails from one address, while a Create stays fast', async () => {
      const spray = (async () => {
        const statuses: number[] = [];
        for (let round = 0; round < 2; round++) {
          const answers = await Promise.all(
            Array.from({ length: 24 }, (_, i) => login(node, `spray-${round}-${i}@nowhere.example`, 'wrong')),
          );
          statuses.push(...answers.map((a) => a.status));
        }
        return statuses;
      })();
      // A write during the spray: its fsync shares libuv's threads with scrypt.
      const started = performance.now();
      const created = await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment()));
      const createMs = performance.now() - started;
      const statuses = await spray;
      expect(created.status).to.equal(201);
      expect(createMs).to.be.below(SERVING_BOUND_MS);
      expect(statuses.filter((s) => s === 401).length).to.be.at.most(20);
      expect(statuses.filter((s) => s === 429).length).to.be.at.least(48 - 20);
      const read = await timedRead(node);
      expect(read.status).to.equal(200);
      expect(read.ms).to.be.below(SERVING_BOUND_MS);
    });
  });

  describe('spraying from many addresses', () => {
    let node: TestNode;
    before(async () => {
      node = await TestNode.start();
      await node.login('otherForwarder');
    });
    after(() => node.stop());

    it('keeps writes and reads fast while 24 clients at 24 addresses spray wrong logins (scrypt is bounded)', async () => {
      let spraying = true;
      const clients = Array.from({ length: 24 }, async (_, i) => {
        const statuses: number[] = [];
        while (spraying)
          statuses.push((await login(node, `victim-${i}-${statuses.length}@nowhere.example`, 'wrong', `127.0.1.${i + 1}`)).status);
        return statuses;
      });
      await new Promise((ok) => setTimeout(ok, 300));
      const started = performance.now();
      const created = await node.publish('otherForwarder', activity('Create', USERS.otherForwarder.org, consignment()));
      const createMs = performance.now() - started;
      const read = await timedRead(node);
      spraying = false;
      const statuses = (await Promise.all(clients)).flat();
      expect(created.status).to.equal(201);
      expect(createMs).to.be.below(SERVING_BOUND_MS);
      expect(read.status).to.equal(200);
      expect(read.ms).to.be.below(SERVING_BOUND_MS);
      expect(statuses.length).to.be.at.least(24);
      expect(statuses.every((st) => st === 401 || st === 503)).to.equal(true);
    });
  });

  describe('account locks', () => {
    let node: TestNode;
    before(async () => {
      node = await TestNode.start({ DATASPACE_LOGIN_ACCOUNT_ADDRESS_FAILURES: '3', DATASPACE_LOGIN_WINDOW_SECONDS: '2' });
    });
    after(() => node.stop());

    it('locks the account for the attacking address only, and lets the owner in there after the window', async () => {
      const { email, password } = USERS.border;
      for (let i = 0; i < 3; i++) expect((await login(node, email, 'guess', '127.0.0.2')).status).to.equal(401);
      const locked = await login(node, email, password, '127.0.0.2');
      expect(locked.status).to.equal(429);
      expect(locked.body.name).to.equal('TooManyRequests');
      expect(Number(locked.headers['retry-after'])).to.be.within(1, 2);
      // The owner at another address is not locked out by the attacker.
      expect((await login(node, email, password, '127.0.0.3')).status).to.equal(200);
      await new Promise((ok) => setTimeout(ok, 2100));
      expect((await login(node, email, password, '127.0.0.2')).status).to.equal(200);
    });
  });

  describe('password checks are bounded', () => {
    let node: TestNode;
    before(async () => {
      node = await TestNode.start({
        DATASPACE_LOGIN_SCRYPT_CONCURRENCY: '1',
        DATASPACE_LOGIN_SCRYPT_QUEUE: '2',
        DATASPACE_LOGIN_ADDRESS_FAILURES: '1000',
      });
      await node.login('otherForwarder');
    });
    after(() => node.stop());

    it('answers 503 with Retry-After when the wait queue is full, and still lets logins in afterwards', async () => {
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login(node, `queue-${i}@nowhere.example`, 'wrong')));
      const busy = answers.filter((a) => a.status === 503);
      expect(busy.length).to.be.at.least(1);
      expect(nth(busy, 0).body).to.have.keys('name', 'message');
      expect(nth(busy, 0).headers['retry-after']).to.equal('1');
      expect(answers.filter((a) => a.status === 401).length).to.be.at.least(3);
      expect((await login(node, USERS.port.email, USERS.port.password)).status).to.equal(200);
      const read = await timedRead(node);
      expect(read.status).to.equal(200);
    });
  });
});
