import { expect } from 'chai';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, event, target } from '../helpers/payloads.js';
import { SignalReceiver, signatureValid, testSecret, type Received } from '../helpers/signal-receiver.js';
import { until } from '../helpers/until.js';
import { only } from '../helpers/present.js';

const ENDPOINT = '/supply-chain/data-space/notification-endpoint';
const SIGNALS = '/supply-chain/data-space/signals';
const redeliver = (id: string) => `${SIGNALS}/${encodeURIComponent(id)}/redeliver`;
const ok = (r: Received) => r.answered >= 200 && r.answered < 300;

/** The path and query of a Link rel="next" header. */
const nextOf = (link: string | undefined): string | undefined => /^<([^>]+)>; rel="next"$/.exec(link ?? '')?.[1];

describe('signals a party was sent: list and redelivery', function () {
  this.timeout(60000);
  const secret = testSecret('received');
  let node: TestNode;
  let receiver: SignalReceiver;
  let douane: SignalReceiver;
  const sent: { globalId: string; type: string }[] = [];
  const ENV = { DATASPACE_NOTIFY_RETRY_MS: '20', DATASPACE_REDELIVER_BURST: '3', DATASPACE_REDELIVER_PER_HOUR: '1' };

  before(async () => {
    node = await TestNode.start(ENV);
    receiver = await SignalReceiver.start();
    douane = await SignalReceiver.start();
    expect((await node.as('douane', 'PUT', ENDPOINT, { url: douane.url, secret })).status).to.equal(200);
    // Sent before the GB agency had an endpoint: a signal the French agency was sent and it was not.
    const douaneOnly = consignment();
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, douaneOnly))).body.status).to.equal('completed');
    await douane.until((r) => r.filter(ok).length === 1);
    expect((await node.as('border', 'PUT', ENDPOINT, { url: receiver.url, secret })).status).to.equal(200);
    // Five consignments (PreNotification each), two of them despatched (Despatch): seven signals to each agency.
    for (let i = 0; i < 5; i++) {
      const c = consignment();
      expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
      sent.push({ globalId: c.globalId, type: 'PreNotification' });
      if (i % 2 === 1) {
        expect(
          (await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)))).body.status,
        ).to.equal('completed');
        sent.push({ globalId: c.globalId, type: 'Despatch' });
      }
    }
    await receiver.until((r) => r.filter(ok).length === sent.length);
    await douane.until((r) => r.filter(ok).length === sent.length + 1);
    // In a replica set the writer records outcomes a moment after the receiver has them
    // (docs/replicas.md, "Recording"); a single node has them at once.
    await until(
      'every outcome recorded',
      async () => (await node.as('border', 'GET', `${SIGNALS}?limit=${sent.length}`)).body,
      (list: any[]) => list.length === sent.length && list.every((s) => s.state === 'delivered'),
    );
  });
  after(async () => {
    await node.stop();
    await receiver.close();
    await douane.close();
  });

  it('lists what the receiver was sent, newest first, in pages that neither skip nor repeat', async () => {
    const seen: any[] = [];
    let path: string | undefined = `${SIGNALS}?limit=3`;
    let pages = 0;
    while (path) {
      const res = await node.as('border', 'GET', path);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.length).to.be.at.most(3);
      seen.push(...res.body);
      path = nextOf(res.headers.get('link') ?? undefined);
      pages++;
    }
    expect(pages).to.equal(3);
    expect(seen.map((s) => [s.globalId, s.type])).to.deep.equal(sent.map((s) => [s.globalId, s.type]).reverse());
    // Each is the signal as delivered: its id is the webhook id the receiver got, and its publication
    // time the very string the webhook body carried (one form for the node's own stamps).
    const publishedBy = new Map(receiver.received.map((r) => [r.headers['webhook-id'], r.json.published]));
    for (const s of seen) {
      expect(publishedBy.get(s.signal)).to.equal(s.published);
      expect(s).to.include({ state: 'delivered', attempts: 1, lastStatus: 204 });
      expect(s).to.not.have.property('receiver');
    }
  });

  it('filters by type and by publication time, and refuses a filter it cannot read', async () => {
    const despatches = await node.as('border', 'GET', `${SIGNALS}?type=Despatch`);
    expect(despatches.body.map((s: any) => s.globalId)).to.deep.equal(
      sent
        .filter((s) => s.type === 'Despatch')
        .map((s) => s.globalId)
        .reverse(),
    );
    const all = (await node.as('border', 'GET', SIGNALS)).body;
    const middle = all[3].published;
    const since = (await node.as('border', 'GET', `${SIGNALS}?since=${encodeURIComponent(middle)}`)).body;
    // Instants, not text: a stamp has no trailing zeros, so `…:42Z` sorts after `…:42.1Z` as text.
    const at = (s: any) => Date.parse(s.published);
    expect(since.map((s: any) => s.signal)).to.deep.equal(all.filter((s: any) => at(s) >= Date.parse(middle)).map((s: any) => s.signal));
    const until = (await node.as('border', 'GET', `${SIGNALS}?until=${encodeURIComponent(middle)}`)).body;
    expect(until.map((s: any) => s.signal)).to.deep.equal(all.filter((s: any) => at(s) < Date.parse(middle)).map((s: any) => s.signal));
    for (const bad of [
      'type=Arrival',
      'since=yesterday',
      'until=2026-13-40',
      'limit=0',
      'cursor=zzz',
      'type=Despatch&type=PreNotification',
    ]) {
      const res = await node.as('border', 'GET', `${SIGNALS}?${bad}`);
      expect(res.status, bad).to.equal(400);
      expect(res.body.name, bad).to.equal('BadRequest');
    }
  });

  it('a forwarder that was sent nothing lists nothing; anyone unauthenticated gets 401', async () => {
    expect((await node.as('forwarder', 'GET', SIGNALS)).body).to.deep.equal([]);
    expect((await node.request('GET', SIGNALS)).status).to.equal(401);
  });

  it("delivers a signal again to the receiver's endpoint with the same webhook id and body, signed", async () => {
    const [newest] = (await node.as('border', 'GET', SIGNALS)).body;
    const before = receiver.received.length;
    const res = await node.as('border', 'POST', redeliver(newest.signal));
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(res.body).to.deep.equal({ signal: newest.signal, receiver: USERS.border.org, state: 'pending' });
    await receiver.until((r) => r.length > before && ok(r.at(-1)!));
    const again = only(receiver.received.slice(before));
    const first = receiver.received.find((r) => r.headers['webhook-id'] === newest.signal)!;
    expect(again.headers['webhook-id']).to.equal(newest.signal);
    expect(again.body).to.equal(first.body);
    expect(signatureValid(secret, again)).to.equal(true);
    const listed = await until(
      'delivered again',
      async () => (await node.as('border', 'GET', SIGNALS)).body[0],
      (s) => s.state === 'delivered',
    );
    expect(listed).to.include({ signal: newest.signal, attempts: 1 });
    // A signal goes to each agency as its own delivery: only the caller's was queued again.
    expect(douane.received).to.have.length(sent.length + 1);
  });

  it("takes a bare uuid; refuses another organisation's signal, an unknown one and one still queued", async () => {
    const [newest, second] = (await node.as('border', 'GET', SIGNALS)).body;
    const douaneSignal = (await node.as('douane', 'GET', SIGNALS)).body.at(-1).signal;
    expect(douaneSignal).to.not.be.oneOf((await node.as('border', 'GET', SIGNALS)).body.map((s: any) => s.signal));
    const notOurs = await node.as('border', 'POST', redeliver(douaneSignal));
    expect(notOurs.status).to.equal(404);
    expect(notOurs.body.name).to.equal('NotFound');
    expect((await node.as('border', 'POST', redeliver('urn:uuid:00000000-0000-4000-8000-000000000000'))).status).to.equal(404);
    expect((await node.as('border', 'POST', redeliver('not an iri <>'))).status).to.equal(404);
    expect((await node.as('forwarder', 'POST', redeliver(newest.signal))).status).to.equal(404);
    // Held pending: the receiver answers 503 until told otherwise.
    receiver.respond = () => 503;
    const bare = second.signal.replace('urn:uuid:', '');
    expect((await node.as('border', 'POST', redeliver(bare))).status).to.equal(202);
    await until(
      'retrying',
      async () => (await node.as('border', 'GET', SIGNALS)).body[1],
      (s) => s.state === 'pending' && s.attempts >= 1,
    );
    const twice = await node.as('border', 'POST', redeliver(second.signal));
    expect(twice.status).to.equal(409);
    expect(twice.body.name).to.equal('Conflict');
    receiver.respond = () => 204;
    await until(
      'delivered',
      async () => (await node.as('border', 'GET', SIGNALS)).body[1],
      (s) => s.state === 'delivered',
    );
  });

  it("bounds the redeliveries one organisation may ask for, without touching another's budget", async () => {
    const list = (await node.as('border', 'GET', SIGNALS)).body;
    // Two of the burst of 3 are spent above; the third is granted, the fourth refused with Retry-After.
    expect((await node.as('border', 'POST', redeliver(list[2].signal))).status).to.equal(202);
    const refused = await node.as('border', 'POST', redeliver(list[3].signal));
    expect(refused.status).to.equal(429);
    expect(refused.body.name).to.equal('TooManyRequests');
    expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
    const douaneList = (await node.as('douane', 'GET', SIGNALS)).body;
    expect((await node.as('douane', 'POST', redeliver(douaneList[0].signal))).status).to.equal(202);
  });

  it('lists the same after a restart: what each receiver was sent is read back from the outbox', async () => {
    const listed = async () =>
      Promise.all(
        (['border', 'douane'] as const).map(async (user) =>
          (await node.as(user, 'GET', `${SIGNALS}?limit=3`)).body.map((s: any) => [s.signal, s.type, s.globalId, s.published]),
        ),
      );
    const before = await listed();
    await node.stop(false);
    node = await TestNode.start(ENV, node.config.dataDir);
    expect(await listed()).to.deep.equal(before);
    const all = (await node.as('border', 'GET', SIGNALS)).body;
    expect(all.map((s: any) => [s.globalId, s.type])).to.deep.equal(sent.map((s) => [s.globalId, s.type]).reverse());
  });
});
