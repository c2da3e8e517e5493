import { expect } from 'chai';
import { MemoryLedger } from '../../../../src/core/ports/memory-ledger.js';
import { newDelivery, Outbox } from '../../../../src/core/notify/outbox.js';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import { DelegatingStore } from '../../../../src/core/store/delegating-store.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import type { Bindings, QueryDataset } from '../../../../src/core/ports/quad-store.js';

const queries = new QueryBank();
const RECEIVER = 'did:web:border.example';

/** A real store whose reads fail while `away` is set, as a SPARQL server's do while it restarts. */
class Flaky extends DelegatingStore {
  away = false;
  override select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
    if (this.away) return Promise.reject(new Error('The SPARQL server did not answer: connect ECONNREFUSED'));
    return this.inner.select(query, dataset);
  }
}

describe('MemoryLedger (what GET /signals walks on a single node)', () => {
  it('reads the outbox again on the next page after a read that failed, rather than failing every page after it', async () => {
    const store = new Flaky(new OxigraphStore());
    const outbox = new Outbox(store, queries);
    const published = new Date('2026-11-23T10:00:00Z');
    const signal = { id: 'urn:uuid:40000000-0000-4000-8000-000000000001', type: 'PreNotification' as const, body: '{}', published };
    const ops = outbox.queueOps(
      { ...signal, consignment: 'urn:dataspace:consignment:1', activity: 'urn:uuid:40000000-0000-4000-8000-000000000002' },
      [{ receiver: RECEIVER, seq: 7, delivery: newDelivery() }],
    );
    await (
      await store.commit({ ops })
    ).durable;
    const ledger = new MemoryLedger(store, queries);
    store.away = true;
    const limits = { items: 10, examine: 100, slice: 10 };
    const failed = await ledger.page(RECEIVER, {}, Number.MAX_SAFE_INTEGER, limits).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failed?.message).to.match(/did not answer/);
    store.away = false;
    const page = await ledger.page(RECEIVER, {}, Number.MAX_SAFE_INTEGER, limits);
    expect(page.items.map((entry) => entry.seq)).to.deep.equal([7]);
  });
});
