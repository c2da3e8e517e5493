import { expect } from 'chai';
import { Ingest } from '../../../../src/core/activities/ingest.js';
import type { Principal } from '../../../../src/core/auth/principal.js';
import { newDelivery, Outbox, type QueuedSignal } from '../../../../src/core/notify/outbox.js';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import type { ChangeOp } from '../../../../src/core/ports/quad-store.js';
import { activity, consignment } from '../../../helpers/payloads.js';
import { fedStore } from '../../../helpers/fed-store.js';
import { stamp } from '../../../../src/core/rdf/date-times.js';
import { firstOf, nth } from '../../../helpers/present.js';

const queries = new QueryBank();
const OWNER: Principal = { email: 'f@a.example', org: { id: 'did:web:a.example', name: 'A', role: 'freightForwarder', locations: [] } };
const RECEIVERS = ['did:web:customs.example', 'did:web:port.example'];
const T0 = new Date('2026-11-23T10:00:00.000Z');

/** A real store holding one consignment written by a real ingest, and the outbox over it. */
async function withConsignment() {
  const { store, onAccepted } = fedStore();
  const ingest = new Ingest({ store, queries, nodeName: 'test-node' });
  await ingest.init();
  const c = consignment();
  let record = '';
  onAccepted((accepted) => {
    record = accepted.consignment.consignment;
  });
  await ingest.receive(activity('Create', OWNER.org.id, c), OWNER);
  const outbox = new Outbox(store, queries);
  const commit = async (ops: ChangeOp[]) => (await store.commit({ ops })).durable;
  const signal: QueuedSignal = {
    id: 'urn:uuid:20000000-0000-4000-8000-000000000001',
    type: 'Despatch',
    consignment: record,
    body: JSON.stringify({ type: 'Despatch' }),
    published: T0,
    activity: 'urn:uuid:30000000-0000-4000-8000-000000000001',
  };
  return { outbox, commit, signal, c };
}

describe('Outbox (signals and their deliveries in the outbox graph)', () => {
  it('queues a signal once per receiver, pending from its publication, found again at start', async () => {
    const { outbox, commit, signal, c } = await withConsignment();
    await commit(
      outbox.queueOps(
        signal,
        RECEIVERS.map((receiver, i) => ({ receiver, seq: 10 + i, delivery: newDelivery() })),
      ),
    );
    const pending = await outbox.pending();
    expect(pending.map((d) => d.receiver).sort()).to.deep.equal(RECEIVERS);
    for (const d of pending) {
      expect(d).to.deep.include({ consignment: signal.consignment, attempts: 0, queuedAt: T0.getTime(), nextAttempt: T0.getTime() });
    }
    expect(pending.map((d) => d.seq).sort()).to.deep.equal([10, 11]);
    expect(await outbox.details(nth(pending, 0).delivery)).to.deep.equal({
      signal: signal.id,
      type: 'Despatch',
      body: signal.body,
      consignment: signal.consignment,
      owner: OWNER.org.id,
      globalId: c.globalId,
      identifier: c.identifier,
    });
    expect(await outbox.details('urn:dataspace:delivery:none')).to.equal(undefined);
    const rows = await outbox.ofConsignment(signal.consignment);
    expect(rows.map((r) => [r.receiver, r.state, r.attempts, r.lastStatus, r.completed]).sort()).to.deep.equal(
      RECEIVERS.map((r) => [r, 'pending', 0, undefined, undefined]),
    );
  });

  it('records each attempt: a retry stays pending with its next time, delivered and failed leave the queue', async () => {
    const { outbox, commit, signal } = await withConsignment();
    await commit(
      outbox.queueOps(
        signal,
        RECEIVERS.map((receiver, i) => ({ receiver, seq: i + 1, delivery: newDelivery() })),
      ),
    );
    const [first, second] = firstOf(
      (await outbox.pending()).sort((a, b) => a.seq - b.seq),
      2,
    );
    const retryAt = new Date(T0.getTime() + 30_000);
    await commit(outbox.recordOps(first, { state: 'pending', status: 503, error: 'HTTP 503', at: T0, retryAt }));
    const again = (await outbox.pending()).find((d) => d.delivery === first.delivery)!;
    expect(again).to.deep.include({ attempts: 1, nextAttempt: retryAt.getTime(), seq: first.seq });

    await commit(outbox.recordOps(again, { state: 'delivered', status: 204, at: retryAt }));
    await commit(outbox.recordOps(second, { state: 'failed', error: 'refused by host policy', at: T0 }));
    expect(await outbox.pending()).to.deep.equal([]);
    const rows = new Map((await outbox.ofConsignment(signal.consignment)).map((r) => [r.receiver, r]));
    // A field without a value is absent, never null.
    expect(rows.get(first.receiver)).to.deep.include({
      state: 'delivered',
      attempts: 2,
      lastStatus: 204,
      completed: stamp(retryAt),
      lastAttempt: stamp(retryAt),
    });
    expect(rows.get(first.receiver)).to.not.have.any.keys('lastError', 'nextAttempt');
    expect(rows.get(second.receiver)).to.deep.include({
      state: 'failed',
      attempts: 1,
      lastError: 'refused by host policy',
      completed: stamp(T0),
    });
    expect(rows.get(second.receiver)).to.not.have.property('lastStatus');
  });
});
