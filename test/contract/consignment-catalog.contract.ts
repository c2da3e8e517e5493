import { expect } from 'chai';
import type { Accepted } from '../../src/core/catalog/accepted.js';
import type { ConsignmentRecord } from '../../src/core/catalog/consignment-record.js';
import type { Batch, ConsignmentCatalog } from '../../src/core/ports/consignment-catalog.js';

const FORWARDER = 'did:web:forwarder.example';
const CARRIER = 'did:web:carrier.example';

/** The n-th consignment of the contract's cases: its seq is n, so publication order is n's order. */
export function record(n: number, owner: string, identifier: string, routes: string[] = []): ConsignmentRecord {
  const hex = n.toString(16).padStart(12, '0');
  return {
    consignment: `urn:dataspace:consignment:${hex}`,
    owner,
    globalId: `urn:uuid:00000000-0000-4000-8000-${hex}`,
    identifier,
    stateGraph: `urn:uuid:00000000-0000-4000-9000-${hex}`,
    created: '2026-11-28T09:00:00Z',
    status: 'published',
    seq: n,
    routes,
  };
}

const create = (r: ConsignmentRecord): Accepted => ({ kind: 'consignment', activityType: 'Create', consignment: r, graph: r.stateGraph });
const stamp = (minute: number) => `2026-11-28T10:${String(minute).padStart(2, '0')}:00Z`;
const list = async <T>(batch: Batch<T>): Promise<T[]> => [...(await batch)];
const seqs = (entries: { seq: number }[]) => entries.map((entry) => entry.seq);

/**
 * What every ConsignmentCatalog answers, whichever keeps it: a single node's memory
 * (core/ports/memory-consignment-catalog.ts) or a replica set's PostgreSQL (adapters/postgres/postgres-catalog.ts).
 * `make` gives a catalog over an empty store, ready for writes.
 */
export function consignmentCatalogContract(make: () => Promise<ConsignmentCatalog>): void {
  describe('ConsignmentCatalog contract', () => {
    /** Tells `catalog` each write as the ingest does, the store having taken it. */
    const accept = async (catalog: ConsignmentCatalog, accepted: Accepted, at: string) => {
      await catalog.accepted(accepted, at, Promise.resolve());
    };

    it('finds an accepted Create by its globalId, by its owner and identifier, and by either id as named', async () => {
      const catalog = await make();
      const first = record(1, FORWARDER, 'FWD-1', ['GBFXT']);
      await accept(catalog, create(first), stamp(1));
      expect(await catalog.byGlobalId(first.globalId)).to.include({
        consignment: first.consignment,
        identifier: 'FWD-1',
        updated: stamp(1),
      });
      expect((await catalog.byIdentifier(FORWARDER, 'FWD-1'))?.consignment).to.equal(first.consignment);
      // Identifiers are unique per publisher only.
      expect(await catalog.byIdentifier(CARRIER, 'FWD-1')).to.equal(undefined);
      expect(await catalog.byGlobalId('urn:uuid:00000000-0000-4000-8000-ffffffffffff')).to.equal(undefined);
      expect(await catalog.globalIdOf(first.consignment)).to.equal(first.globalId);
      expect(seqs(await catalog.named(first.globalId))).to.deep.equal([1]);
      expect(seqs(await catalog.named('FWD-1'))).to.deep.equal([1]);
      const [entry] = await catalog.entries([first.consignment, 'urn:dataspace:consignment:none']);
      expect(entry).to.include({ seq: 1, iri: first.consignment, owner: FORWARDER, globalId: first.globalId });
      expect([...entry!.locations]).to.deep.equal(['GBFXT']);
    });

    it("names two publishers' consignments of one identifier alike, each found by its own owner", async () => {
      const catalog = await make();
      await accept(catalog, create(record(1, FORWARDER, 'SHARED-7')), stamp(1));
      await accept(catalog, create(record(2, CARRIER, 'SHARED-7')), stamp(2));
      expect(seqs(await catalog.named('SHARED-7')).sort()).to.deep.equal([1, 2]);
      expect((await catalog.byIdentifier(CARRIER, 'SHARED-7'))?.seq).to.equal(2);
    });

    it('keeps what an Update changed: a new identifier and route, its update time', async () => {
      const catalog = await make();
      const first = record(1, FORWARDER, 'FWD-1', ['GBFXT']);
      await accept(catalog, create(first), stamp(1));
      const renamed = { ...first, identifier: 'FWD-1-B', routes: ['NLRTM'] };
      await accept(catalog, { ...create(renamed), activityType: 'Update' }, stamp(5));
      expect(await catalog.byIdentifier(FORWARDER, 'FWD-1')).to.equal(undefined);
      expect(await catalog.byIdentifier(FORWARDER, 'FWD-1-B')).to.include({ consignment: first.consignment, updated: stamp(5) });
      const [entry] = await catalog.entries([first.consignment]);
      expect([...entry!.locations]).to.deep.equal(['NLRTM']);
    });

    it('lists consignments in publication order among owners and locations, narrowed and paged by seq', async () => {
      const catalog = await make();
      await accept(catalog, create(record(1, FORWARDER, 'A', ['GBFXT'])), stamp(1));
      await accept(catalog, create(record(2, CARRIER, 'B', ['NLRTM'])), stamp(2));
      await accept(catalog, create(record(3, FORWARDER, 'C', ['NLRTM'])), stamp(3));
      await accept(catalog, create(record(4, CARRIER, 'D', ['DEHAM'])), stamp(4));
      const after = (owners: string[], locations: string[], afterSeq: number, count: number, location?: string) =>
        list(catalog.consignmentsAfter({ owners, locations }, location === undefined ? {} : { location }, afterSeq, count));
      expect(seqs(await after([FORWARDER], [], 0, 10))).to.deep.equal([1, 3]);
      expect(seqs(await after([], ['NLRTM'], 0, 10))).to.deep.equal([2, 3]);
      expect(seqs(await after([FORWARDER], ['NLRTM'], 0, 10))).to.deep.equal([1, 2, 3]);
      expect(seqs(await after([FORWARDER], ['NLRTM'], 1, 10))).to.deep.equal([2, 3]);
      // At least `count` (more may come), each once, in order.
      const two = seqs(await after([FORWARDER, CARRIER], [], 0, 2));
      expect(two.slice(0, 2)).to.deep.equal([1, 2]);
      expect(seqs(await after([], [], 0, 10))).to.deep.equal([]);
      // Narrowed to a location: every consignment a filter on it can show is among the batch.
      expect(seqs(await after([FORWARDER, CARRIER], [], 0, 10, 'DEHAM'))).to.include(4);
    });

    it('walks consignments in update order, then publication order, after a key', async () => {
      const catalog = await make();
      await accept(catalog, create(record(1, FORWARDER, 'A')), stamp(1));
      await accept(catalog, create(record(2, FORWARDER, 'B')), stamp(2));
      await accept(catalog, create(record(3, FORWARDER, 'C')), stamp(2));
      await accept(catalog, { ...create(record(1, FORWARDER, 'A')), activityType: 'Update' }, stamp(9));
      const all = seqs(await list(catalog.updatedAfter({ ms: -Infinity, seq: 0 }, 10)));
      expect(all).to.deep.equal([2, 3, 1]);
      expect(seqs(await list(catalog.updatedAfter({ ms: Date.parse(stamp(2)), seq: 2 }, 10)))).to.deep.equal([3, 1]);
    });

    it("lists the documents registered on an owner's consignments in registration order", async () => {
      const catalog = await make();
      const first = record(1, FORWARDER, 'A');
      await accept(catalog, create(first), stamp(1));
      const added = (seq: number): Accepted => ({
        kind: 'document',
        activityType: 'Add',
        consignment: first,
        graph: `urn:uuid:00000000-0000-4000-a000-${seq.toString(16).padStart(12, '0')}`,
        document: { iri: `urn:dataspace:document:${seq}`, seq },
        revision: 1,
      });
      await accept(catalog, added(5), stamp(2));
      await accept(catalog, added(7), stamp(3));
      const documents = await list(catalog.documentsAfter([FORWARDER], 0, 10));
      expect(documents.map((d) => [d.seq, d.iri, d.consignment.iri])).to.deep.equal([
        [5, 'urn:dataspace:document:5', first.consignment],
        [7, 'urn:dataspace:document:7', first.consignment],
      ]);
      expect(seqs(await list(catalog.documentsAfter([FORWARDER], 5, 10)))).to.deep.equal([7]);
      expect(await list(catalog.documentsAfter([CARRIER], 0, 10))).to.deep.equal([]);
    });

    it('does not keep a write the store refused', async () => {
      const catalog = await make();
      const refused = record(1, FORWARDER, 'REFUSED');
      await catalog.accepted(create(refused), stamp(1), Promise.reject(new Error('the store refused it'))).catch(() => undefined);
      await catalog.ready();
      expect(await catalog.byGlobalId(refused.globalId)).to.equal(undefined);
      expect(await catalog.byIdentifier(FORWARDER, 'REFUSED')).to.equal(undefined);
    });
  });
}
