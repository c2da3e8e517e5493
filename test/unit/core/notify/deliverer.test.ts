import { expect } from 'chai';
import { Ingest } from '../../../../src/core/activities/ingest.js';
import type { Principal } from '../../../../src/core/auth/principal.js';
import { createLogger } from '../../../../src/core/logger.js';
import { Deliverer } from '../../../../src/core/notify/deliverer.js';
import { NotificationEndpoints } from '../../../../src/core/notify/endpoints.js';
import { newDelivery, Outbox, type PendingDelivery, type QueuedSignal } from '../../../../src/core/notify/outbox.js';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import { Registry } from '../../../../src/core/registry/registry.js';
import { activity, consignment } from '../../../helpers/payloads.js';
import { pause, signatureValid, SignalReceiver, testSecret, type Responder } from '../../../helpers/signal-receiver.js';
import { fedStore } from '../../../helpers/fed-store.js';
import { nth } from '../../../helpers/present.js';

const queries = new QueryBank();
const OWNER: Principal = { email: 'f@a.example', org: { id: 'did:web:a.example', name: 'A', role: 'freightForwarder', locations: [] } };
const RECEIVER = 'did:web:customs.example';
const SECRET = testSecret('deliverer');

/**
 * A real store, registry and outbox with one consignment, a receiver on 127.0.0.1 (the seed's own
 * endpoint) and a deliverer with short retries; `signal(n)` queues the n-th Despatch for it.
 */
async function setUp(respond: Responder) {
  const receiver = await SignalReceiver.start(respond);
  const { store, onAccepted } = fedStore();
  const registry = new Registry(store, queries);
  await registry.applySeed({
    organisations: [
      { ...OWNER.org },
      {
        id: RECEIVER,
        name: 'Customs',
        role: 'borderAgency',
        country: 'NL',
        locations: [],
        notificationUrl: `http://127.0.0.1:${receiver.port}/hook`,
        notificationSecret: SECRET,
      },
    ],
    users: [],
    policies: [],
  });
  const ingest = new Ingest({ store, queries, nodeName: 'test-node' });
  await ingest.init();
  let record = '';
  onAccepted((accepted) => {
    record = accepted.consignment.consignment;
  });
  await ingest.receive(activity('Create', OWNER.org.id, consignment()), OWNER);
  const outbox = new Outbox(store, queries);
  const endpoints = new NotificationEndpoints(store, queries, registry);
  await endpoints.load();
  let seqs = 0;
  const deliverer = new Deliverer({
    store,
    outbox,
    registry,
    endpoints,
    logger: createLogger('silent'),
    nodeName: 'test-node',
    allocateSeq: () => ++seqs,
    config: { baseMs: 20, maxDelayMs: 40, giveUpAfterMs: 60_000, timeoutMs: 5_000, concurrency: 4, allow: ['*'] },
    random: () => 0.5,
  });
  /** Queues the n-th signal in the store; what a committer hands the deliverer for it. */
  const signal = async (n: number): Promise<QueuedSignal & { queued: PendingDelivery }> => {
    const s: QueuedSignal = {
      id: `urn:uuid:20000000-0000-4000-8000-00000000000${n}`,
      type: 'Despatch',
      consignment: record,
      body: JSON.stringify({ type: 'Despatch', n }),
      published: new Date(),
      activity: `urn:uuid:30000000-0000-4000-8000-00000000000${n}`,
    };
    const delivery = newDelivery();
    await (
      await store.commit({ ops: outbox.queueOps(s, [{ receiver: RECEIVER, seq: n, delivery }]) })
    ).durable;
    const at = s.published.getTime();
    return { ...s, queued: { delivery, receiver: RECEIVER, consignment: record, seq: n, attempts: 0, queuedAt: at, nextAttempt: at } };
  };
  const settled = async () => {
    for (let i = 0; i < 200 && deliverer.backlog > 0; i++) await pause(10);
    expect(deliverer.backlog).to.equal(0);
  };
  return { receiver, outbox, deliverer, signal, settled, record, systemEvents: () => seqs };
}

describe('Deliverer (signals from the outbox to the receivers)', () => {
  const open: { receiver: SignalReceiver; deliverer: Deliverer }[] = [];
  afterEach(async () => {
    for (const { receiver, deliverer } of open.splice(0)) {
      await deliverer.stop();
      await receiver.close();
    }
  });

  it('delivers signed signals in order, retrying the oldest before the next is tried, and records each outcome', async () => {
    const t = await setUp((_received, n) => (n === 0 ? 503 : 204));
    open.push(t);
    await t.signal(1);
    await t.signal(2);
    t.deliverer.start();
    const received = await t.receiver.until((r) => r.length >= 3);
    await t.settled();
    expect(received.map((r) => r.json.n)).to.deep.equal([1, 1, 2]);
    expect(received.every((r) => r.method === 'POST' && signatureValid(SECRET, r))).to.equal(true);
    expect(await t.outbox.pending()).to.deep.equal([]);
    const rows = (await t.outbox.ofConsignment(t.record)).sort((a, b) => a.signal.localeCompare(b.signal));
    expect(rows.map((r) => [r.state, r.attempts, r.lastStatus])).to.deep.equal([
      ['delivered', 2, 204],
      ['delivered', 1, 204],
    ]);
    expect(t.systemEvents(), 'one SIGNAL_DELIVERED each').to.equal(2);
  });

  it('takes up what an activity queued while running, and does not retry a receiver that answered 410 Gone', async () => {
    const t = await setUp(() => 410);
    open.push(t);
    t.deliverer.start();
    const s = await t.signal(3);
    t.deliverer.queued([s.queued]);
    await t.receiver.until((r) => r.length >= 1);
    await t.settled();
    await pause(60);
    expect(t.receiver.received).to.have.length(1);
    const row = nth(await t.outbox.ofConsignment(t.record), 0);
    expect(row).to.deep.include({ state: 'failed', attempts: 1, lastStatus: 410 });
    expect(row.lastError).to.match(/410 Gone/);
    expect(t.systemEvents(), 'one SIGNAL_FAILED').to.equal(1);
  });
});
