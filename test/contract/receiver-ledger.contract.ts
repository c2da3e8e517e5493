import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { OxigraphStore } from '../../src/adapters/oxigraph/oxigraph-store.js';
import { newDelivery, Outbox } from '../../src/core/notify/outbox.js';
import type { SignalType } from '../../src/core/notify/signals.js';
import type { QuadStore } from '../../src/core/ports/quad-store.js';
import type { LedgerEntry, ReceiverLedger } from '../../src/core/ports/receiver-ledger.js';
import { QueryBank } from '../../src/core/queries/query-bank.js';

const queries = new QueryBank();
const BORDER = 'did:web:border.example';
const PORT = 'did:web:port.example';
const T0 = Date.parse('2026-11-23T10:00:00Z');
const HOUR = 3_600_000;
const TOP = Number.MAX_SAFE_INTEGER;

/** Queues one signal of `type` to `receivers` in the store's outbox, as a commit does; answers its deliveries. */
async function queue(store: QuadStore, seq: number, type: SignalType, hours: number, receivers: string[]): Promise<LedgerEntry[]> {
  const deliveries = receivers.map((receiver, i) => ({ receiver, seq: seq + i, delivery: newDelivery() }));
  const ops = new Outbox(store, queries).queueOps(
    {
      id: `urn:uuid:${randomUUID()}`,
      type,
      consignment: `urn:dataspace:consignment:${randomUUID()}`,
      body: '{}',
      published: new Date(T0 + hours * HOUR),
      activity: `urn:uuid:${randomUUID()}`,
    },
    deliveries,
  );
  await (
    await store.commit({ ops })
  ).durable;
  return deliveries.map((d) => ({ seq: d.seq, delivery: d.delivery, type, published: T0 + hours * HOUR }));
}

/**
 * What every ReceiverLedger answers, whichever keeps it: a single node's memory (core/ports/memory-ledger.ts)
 * or a replica set's PostgreSQL (adapters/postgres/postgres-ledger.ts). `make` gives a new ledger over
 * `store`'s outbox, as a node starting on it does.
 */
export function receiverLedgerContract(make: (store: QuadStore) => Promise<ReceiverLedger>): void {
  describe('ReceiverLedger contract', () => {
    const seqsOf = (entries: LedgerEntry[]) => entries.map((entry) => entry.seq);

    it("reads the outbox at start and pages a receiver's deliveries newest first, by type and publication time", async () => {
      const store = new OxigraphStore();
      await queue(store, 10, 'PreNotification', 1, [BORDER, PORT]);
      await queue(store, 20, 'Despatch', 5, [BORDER]);
      await queue(store, 30, 'PreNotification', 9, [BORDER]);
      const ledger = await make(store);
      const page = (filter: object, before = TOP) => ledger.page(BORDER, filter, before, { items: 10, examine: 100, slice: 10 });
      expect(seqsOf((await page({})).items)).to.deep.equal([30, 20, 10]);
      expect(seqsOf((await page({}, 30)).items)).to.deep.equal([20, 10]);
      expect(seqsOf((await page({ type: 'PreNotification' })).items)).to.deep.equal([30, 10]);
      expect(seqsOf((await page({ since: T0 + 5 * HOUR })).items)).to.deep.equal([30, 20]);
      expect(seqsOf((await page({ until: T0 + 5 * HOUR })).items)).to.deep.equal([10]);
      expect((await page({})).items[1]).to.deep.include({ type: 'Despatch', published: T0 + 5 * HOUR });
      expect(seqsOf((await ledger.page(PORT, {}, TOP, { items: 10, examine: 100, slice: 10 })).items)).to.deep.equal([11]);
      expect((await ledger.page('did:web:nobody.example', {}, TOP, { items: 10, examine: 100, slice: 10 })).items).to.deep.equal([]);
    });

    it('stops a page at its items, or at what it may examine, and says where the next one starts', async () => {
      const store = new OxigraphStore();
      for (let i = 1; i <= 6; i++) await queue(store, i * 10, i <= 4 ? 'Despatch' : 'PreNotification', i, [BORDER]);
      const ledger = await make(store);
      const full = await ledger.page(BORDER, {}, TOP, { items: 2, examine: 100, slice: 10 });
      expect(seqsOf(full.items)).to.deep.equal([60, 50]);
      expect(full.next).to.equal(50);
      // Three looked at (60, 50, 40), none of them a Despatch but 40: the page stops there.
      const examined = await ledger.page(BORDER, { type: 'Despatch' }, TOP, { items: 5, examine: 3, slice: 10 });
      expect(seqsOf(examined.items)).to.deep.equal([40]);
      expect(examined.next).to.equal(40);
      const last = await ledger.page(BORDER, {}, 20, { items: 5, examine: 100, slice: 10 });
      expect(seqsOf(last.items)).to.deep.equal([10]);
      expect(last.next).to.equal(undefined);
    });

    it('lists a delivery it is told at once, and each delivery once however often it is told', async () => {
      const store = new OxigraphStore();
      const [read] = await queue(store, 10, 'Despatch', 1, [BORDER]);
      const ledger = await make(store);
      await ledger.startLoading();
      const told: LedgerEntry = { seq: 11, delivery: newDelivery(), type: 'PreNotification', published: T0 + 2 * HOUR };
      ledger.add(BORDER, told);
      ledger.add(BORDER, told);
      ledger.add(BORDER, read!);
      const page = await ledger.page(BORDER, {}, TOP, { items: 10, examine: 100, slice: 10 });
      expect(page.items).to.deep.equal([told, read]);
    });
  });
}
