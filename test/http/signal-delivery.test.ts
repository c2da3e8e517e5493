import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SEED, TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, event, target } from '../helpers/payloads.js';
import { pause, SignalReceiver, signatureValid, testSecret, type Received } from '../helpers/signal-receiver.js';
import { freePort } from '../helpers/free-port.js';
import { until } from '../helpers/until.js';
import { nth } from '../helpers/present.js';

const ENDPOINT = '/supply-chain/data-space/notification-endpoint';
const deliveriesPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}/deliveries`;
const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;
const ok = (r: Received) => r.answered >= 200 && r.answered < 300;

async function deliveries(node: TestNode, globalId: string): Promise<any[]> {
  const res = await node.as('forwarder', 'GET', deliveriesPath(globalId));
  expect(res.status).to.equal(200);
  return res.body;
}

describe('signals: delivery, retries and order', function () {
  this.timeout(30000);
  const secret = testSecret('delivery');
  let node: TestNode;
  let receiver: SignalReceiver;

  const create = async (c: Record<string, any>) => {
    const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    expect(res.body.status, JSON.stringify(res.body)).to.equal('completed');
  };
  const despatch = async (c: Record<string, any>) => {
    const res = await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)));
    expect(res.body.status, JSON.stringify(res.body)).to.equal('completed');
  };

  describe('with one receiver', () => {
    before(async () => {
      node = await TestNode.start({ DATASPACE_NOTIFY_RETRY_MS: '20', DATASPACE_NOTIFY_TIMEOUT_MS: '1000' });
      receiver = await SignalReceiver.start();
      expect((await node.as('border', 'PUT', ENDPOINT, { url: receiver.url, secret })).status).to.equal(200);
    });
    after(async () => {
      await node.stop();
      await receiver.close();
    });
    afterEach(() => {
      receiver.respond = () => 204;
    });

    it('retries after 503 with backoff until delivered, repeating the same id and body, signed each time', async () => {
      const c = consignment();
      receiver.respond = () => (receiver.about(c.globalId).length < 3 ? 503 : 204);
      await create(c);
      await receiver.until(() => receiver.about(c.globalId).some(ok));
      const tries = receiver.about(c.globalId);
      expect(tries.map((r) => r.answered)).to.deep.equal([503, 503, 503, 204]);
      expect(new Set(tries.map((r) => r.headers['webhook-id'])).size).to.equal(1);
      expect(new Set(tries.map((r) => r.body)).size).to.equal(1);
      expect(nth(tries, 0).json.id).to.equal(nth(tries, 0).headers['webhook-id']);
      for (const r of tries) expect(signatureValid(secret, r)).to.equal(true);
      // Backoff: the n-th wait is at least half of base·2^(n-1) (equal jitter), so the waits grow.
      const waits = tries.slice(1).map((r, i) => r.at - tries[i]!.at);
      waits.forEach((wait, i) => expect(wait, `wait ${i + 1} of ${JSON.stringify(waits)}`).to.be.at.least(10 * 2 ** i - 2));
      const [d] = await until(
        'delivered',
        () => deliveries(node, c.globalId),
        (ds) => ds[0]?.state === 'delivered',
      );
      expect(d).to.include({ receiver: USERS.border.org, state: 'delivered', attempts: 4, lastStatus: 204 });
    });

    it('records a retry as pending with its last status and next attempt', async () => {
      const c = consignment();
      receiver.respond = () => 503;
      await create(c);
      const [d] = await until(
        'retried',
        () => deliveries(node, c.globalId),
        (ds) => ds[0]?.attempts >= 2,
      );
      expect(d).to.include({ state: 'pending', lastStatus: 503 });
      expect(d.lastError).to.contain('503');
      expect(Date.parse(d.nextAttempt)).to.not.be.NaN;
      receiver.respond = () => 200;
      await until(
        'delivered',
        () => deliveries(node, c.globalId),
        (ds) => ds[0]?.state === 'delivered',
      );
    });

    it('stops at 410 Gone without retrying, and still delivers later signals', async () => {
      const c = consignment();
      receiver.respond = () => 410;
      await create(c);
      const [gone] = await until(
        'gone',
        () => deliveries(node, c.globalId),
        (ds) => ds[0]?.state !== 'pending',
      );
      expect(gone).to.include({ state: 'failed', attempts: 1, lastStatus: 410 });
      receiver.respond = () => 202;
      await despatch(c);
      await until(
        'despatch',
        () => deliveries(node, c.globalId),
        (ds) => ds.length === 2 && ds[1].state === 'delivered',
      );
      expect(receiver.about(c.globalId).map((r) => [r.json.type, r.answered])).to.deep.equal([
        ['PreNotification', 410],
        ['Despatch', 202],
      ]);
      const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
      expect(view.systemEvents.map((e: any) => e.typeCode)).to.include.members(['SIGNAL_FAILED', 'SIGNAL_DELIVERED']);
    });

    it('treats redirects and client errors as failures to retry, not as delivered', async () => {
      const c = consignment();
      receiver.respond = () => [302, 400, 500][receiver.about(c.globalId).length] ?? 204;
      await create(c);
      await until(
        'delivered',
        () => deliveries(node, c.globalId),
        (ds) => ds[0]?.state === 'delivered',
      );
      expect(receiver.about(c.globalId).map((r) => r.answered)).to.deep.equal([302, 400, 500, 204]);
    });

    it('retries a receiver that does not answer in time, and the inbox never waits for it', async () => {
      const c = consignment();
      receiver.respond = () => (receiver.about(c.globalId).length === 0 ? 'hang' : 204);
      const started = Date.now();
      await create(c);
      await despatch(c);
      const inboxMs = Date.now() - started;
      await receiver.until(() => receiver.about(c.globalId).length >= 1);
      // Had the inbox waited for delivery, it would have waited out the 1000 ms attempt timeout.
      expect(inboxMs, 'both inbox answers').to.be.below(1000);
      const ds = await until(
        'delivered',
        () => deliveries(node, c.globalId),
        (x) => x.length === 2 && x.every((d) => d.state === 'delivered'),
      );
      expect(ds[0]).to.include({ attempts: 2 });
      expect(receiver.about(c.globalId).map((r) => [r.json.type, r.answered])).to.deep.equal([
        ['PreNotification', 0],
        ['PreNotification', 204],
        ['Despatch', 204],
      ]);
    });

    it('never lets a Despatch overtake its Pre-Notification while that is being retried', async () => {
      const c = consignment();
      receiver.respond = (r) => (r.json.type === 'PreNotification' && receiver.about(c.globalId).length < 4 ? 503 : 204);
      await create(c);
      await despatch(c);
      await until(
        'both',
        () => deliveries(node, c.globalId),
        (ds) => ds.length === 2 && ds.every((d) => d.state === 'delivered'),
      );
      expect(receiver.about(c.globalId).map((r) => `${r.json.type} ${r.answered}`)).to.deep.equal([
        'PreNotification 503',
        'PreNotification 503',
        'PreNotification 503',
        'PreNotification 503',
        'PreNotification 204',
        'Despatch 204',
      ]);
    });

    it("keeps each consignment's signals in order under concurrent publishes, with a flaky receiver", async () => {
      let n = 0;
      receiver.respond = () => (++n % 3 === 0 ? 503 : 204);
      const cs = Array.from({ length: 12 }, () => consignment());
      await Promise.all(
        cs.map(async (c) => {
          await create(c);
          await despatch(c);
          const res = await node.publish('forwarder', activity('Update', USERS.forwarder.org, { ...c, summaryDescription: 'Updated' }));
          expect(res.body.status).to.equal('completed');
        }),
      );
      // Two more raised at once for each consignment: whichever the inbox commits first is delivered first.
      await Promise.all(
        cs.map((c) =>
          Promise.all([
            despatch(c),
            node.publish('forwarder', activity('Update', USERS.forwarder.org, { ...c, summaryDescription: 'Again' })),
          ]),
        ),
      );
      for (const c of cs) {
        const ds = await until(
          `settled ${c.globalId}`,
          () => deliveries(node, c.globalId),
          (x) => x.length === 5 && x.every((d) => d.state === 'delivered'),
          10000,
        );
        const queued = ds.map((d) => d.signal);
        const tries = receiver.about(c.globalId);
        // At least once: a 2xx the node did not hear in time (a busy loop, a timeout) is repeated, with the same id.
        const delivered = [...new Set(tries.filter(ok).map((r) => r.json.id))];
        expect(delivered).to.deep.equal(queued);
        expect(ds.slice(0, 3).map((d) => d.type)).to.deep.equal(['PreNotification', 'Despatch', 'PreNotification']);
        expect(
          ds
            .slice(3)
            .map((d) => d.type)
            .sort(),
        ).to.deep.equal(['Despatch', 'PreNotification']);
        // No attempt at a signal was made before every earlier one had been answered 2xx.
        const order = tries.map((r) => queued.indexOf(r.json.id));
        for (let i = 1; i < order.length; i++) expect(order[i], JSON.stringify(order)).to.be.at.least(order[i - 1]!);
      }
    });
  });

  describe('when the receiver keeps failing', () => {
    before(async () => {
      node = await TestNode.start({ DATASPACE_NOTIFY_RETRY_MS: '20', DATASPACE_NOTIFY_GIVE_UP_MS: '1000' });
      receiver = await SignalReceiver.start(() => 500);
      await node.as('border', 'PUT', ENDPOINT, { url: receiver.url, secret });
    });
    after(async () => {
      await node.stop();
      await receiver.close();
    });

    it('gives up after DATASPACE_NOTIFY_GIVE_UP_MS, marks the delivery failed, and tries no more', async () => {
      const c = consignment();
      const started = Date.now();
      await create(c);
      const [d] = await until(
        'given up',
        () => deliveries(node, c.globalId),
        (ds) => ds[0]?.state === 'failed',
      );
      expect(Date.now() - started).to.be.at.least(980);
      expect(d.attempts).to.be.at.least(3);
      expect(d).to.include({ lastStatus: 500 });
      expect(d.lastError).to.contain('given up');
      const count = receiver.about(c.globalId).length;
      expect(count).to.equal(d.attempts);
      await pause(200);
      expect(receiver.about(c.globalId).length).to.equal(count);
      const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
      const failed = view.systemEvents.find((e: any) => e.typeCode === 'SIGNAL_FAILED');
      expect(failed.object).to.deep.include({ id: d.signal, type: 'PreNotification' });
    });
  });

  describe('when the receiver moves', () => {
    before(async () => {
      node = await TestNode.start({ DATASPACE_NOTIFY_RETRY_MS: '60000' });
    });
    after(async () => {
      await node.stop();
    });

    it('tries a waiting signal again at once when the receiver registers a new endpoint', async () => {
      const dead = await freePort();
      await node.as('border', 'PUT', ENDPOINT, { url: `http://127.0.0.1:${dead}/hook`, secret });
      const c = consignment();
      await create(c);
      const [waiting] = await until(
        'first attempt',
        () => deliveries(node, c.globalId),
        (ds) => ds[0]?.attempts === 1,
      );
      expect(Date.parse(waiting.nextAttempt) - Date.now()).to.be.above(20000);
      receiver = await SignalReceiver.start();
      try {
        await node.as('border', 'PUT', ENDPOINT, { url: receiver.url });
        const r = nth(await receiver.until(() => receiver.about(c.globalId).length > 0, 3000), 0);
        expect(r.json.id).to.equal(waiting.signal);
        expect(signatureValid(secret, r), 'the secret is kept when only the url changes').to.equal(true);
      } finally {
        await receiver.close();
      }
    });
  });

  describe('across a restart', () => {
    let dataDir: string;
    let seedDir: string;

    before(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'dataspace-signals-'));
      seedDir = mkdtempSync(join(tmpdir(), 'dataspace-signals-seed-'));
    });
    after(() => {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(seedDir, { recursive: true, force: true });
    });

    it('delivers every signal, in order and with the same ids, to a receiver that was down while the node restarted', async () => {
      const port = await freePort();
      // This time the endpoint comes from the seed, as an operator would configure it.
      const seed = JSON.parse(readFileSync(TEST_SEED, 'utf8'));
      const border = seed.organisations.find((o: any) => o.id === USERS.border.org);
      Object.assign(border, { notificationUrl: `http://127.0.0.1:${port}/hook`, notificationSecret: secret });
      const seedPath = join(seedDir, 'seed.json');
      writeFileSync(seedPath, JSON.stringify(seed));
      const env = { DATASPACE_SEED: seedPath, DATASPACE_NOTIFY_RETRY_MS: '20', DATASPACE_NOTIFY_MAX_DELAY_MS: '100' };

      node = await TestNode.start(env, dataDir);
      const [a, b] = [consignment(), consignment()];
      await create(a);
      await despatch(a);
      await create(b);
      const before = await until(
        'attempted',
        async () => [...(await deliveries(node, a.globalId)), ...(await deliveries(node, b.globalId))],
        (ds) => ds.length === 3 && ds.every((d) => d.state === 'pending' && (d.type === 'Despatch' || d.attempts >= 1)),
      );
      // The Despatch waits behind its Pre-Notification: never attempted while that is pending.
      expect(before.find((d) => d.type === 'Despatch').attempts).to.equal(0);
      await node.stop(false);

      receiver = await SignalReceiver.start(() => 204, port);
      try {
        node = await TestNode.start(env, dataDir);
        await receiver.until(() => receiver.about(a.globalId).length >= 2 && receiver.about(b.globalId).length >= 1);
        expect(receiver.about(a.globalId).map((r) => r.json.type)).to.deep.equal(['PreNotification', 'Despatch']);
        const ids = new Set(before.map((d) => d.signal));
        for (const r of receiver.received) {
          expect(ids.has(r.headers['webhook-id'])).to.equal(true);
          expect(r.json.id).to.equal(r.headers['webhook-id']);
          expect(signatureValid(secret, r)).to.equal(true);
        }
        const after = await until(
          'delivered',
          async () => [...(await deliveries(node, a.globalId)), ...(await deliveries(node, b.globalId))],
          (ds) => ds.every((d) => d.state === 'delivered'),
        );
        expect(after.map((d) => d.signal)).to.deep.equal(before.map((d) => d.signal));
        // A new signal after the restart is queued and delivered as usual.
        await despatch(b);
        await receiver.until(() => receiver.about(b.globalId).length >= 2);
        expect(receiver.about(b.globalId).map((r) => r.json.type)).to.deep.equal(['PreNotification', 'Despatch']);
      } finally {
        await node.stop(false);
        await receiver.close();
      }
    });
  });
});
