import { expect } from 'chai';
import { ConsignmentIndex } from '../../../../src/core/ports/memory-consignment-catalog.js';
import { packedRecord, readRecords, startRecordOps } from '../../../../src/core/catalog/records.js';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import { GRAPHS, RDF_TYPE, svc } from '../../../../src/core/rdf/namespaces.js';
import { NQuadsBuilder } from '../../../../src/core/rdf/nquads.js';
import { DelegatingStore } from '../../../../src/core/store/delegating-store.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import type { Bindings, ChangeOp, QueryDataset } from '../../../../src/core/ports/quad-store.js';
import { stamp } from '../../../../src/core/rdf/date-times.js';
import { nth } from '../../../helpers/present.js';

const queries = new QueryBank();

/** A SPARQL server that answers at most `cap` rows, whatever the query asks for. */
class CappedStore extends DelegatingStore {
  constructor(
    inner: OxigraphStore,
    private readonly cap: number,
  ) {
    super(inner);
  }

  override async select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
    return (await this.inner.select(query, dataset)).slice(0, this.cap);
  }
}

/** Identifiers as awkward as a payload may send: spaces, percent signs, quotes, non-ASCII, a tab. */
const identifierOf = (i: number): string => (i === 5 ? 'REF 5 % "quoted" é☃\t+' : `REF-${i}`);

/** `n` records whose Creates had sequence numbers 4,001 apart, so they span several pages of the read. */
async function storeWith(n: number): Promise<OxigraphStore> {
  const store = new OxigraphStore();
  const meta = new NQuadsBuilder(GRAPHS.metadata);
  for (let i = 0; i < n; i++) {
    const c = `urn:dataspace:consignment:${i}`;
    meta
      .iri(c, RDF_TYPE, svc('ConsignmentRecord'))
      .literal(c, svc('globalId'), `urn:uuid:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`)
      .literal(c, svc('identifier'), identifierOf(i))
      .literal(c, svc('seq'), 1 + i * 4_001)
      .iri(c, svc('owner'), i % 2 === 0 ? 'did:web:a.example' : 'did:web:b.example')
      .literal(c, svc('created'), '2026-11-22T00:00:00.123Z', 'http://www.w3.org/2001/XMLSchema#dateTime')
      .literal(c, svc('updated'), `2026-11-22T00:00:0${i % 10}.5Z`, 'http://www.w3.org/2001/XMLSchema#dateTime')
      .literal(c, svc('status'), 'published')
      .iri(c, svc('stateGraph'), `urn:uuid:10000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
  }
  await store.commit({ ops: [{ op: 'insert', nquads: meta.toString() }] });
  return store;
}

describe('ConsignmentIndex: the records (what the ingest decides on)', () => {
  it('reads every record at start and finds them by globalId and by owner + identifier', async () => {
    const records = new ConsignmentIndex(await storeWith(7), queries);
    await records.ready();
    expect((await records.byGlobalId('urn:uuid:00000000-0000-4000-8000-000000000006'))?.identifier).to.equal('REF-6');
    expect((await records.byIdentifier('did:web:b.example', 'REF-3'))?.consignment).to.equal('urn:dataspace:consignment:3');
    expect(await records.byIdentifier('did:web:a.example', 'REF-3')).to.equal(undefined);
    expect(await records.byIdentifier('did:web:b.example', identifierOf(5))).to.deep.equal({
      consignment: 'urn:dataspace:consignment:5',
      owner: 'did:web:b.example',
      identifier: identifierOf(5),
      globalId: 'urn:uuid:00000000-0000-4000-8000-000000000005',
      stateGraph: 'urn:uuid:10000000-0000-4000-8000-000000000005',
      created: '2026-11-22T00:00:00.123Z',
      updated: '2026-11-22T00:00:05.5Z',
      status: 'published',
      seq: 20_006,
    });
  });

  it("reads in ranges under a server's row cap, and in one range on a store without one", async () => {
    /** Counts the selects; `rowCap` as a server would declare it. */
    class Counting extends DelegatingStore {
      selects = 0;
      constructor(
        inner: OxigraphStore,
        private readonly cap: number | undefined,
      ) {
        super(inner);
      }

      override get rowCap(): number | undefined {
        return this.cap;
      }

      override async select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
        this.selects += 1;
        return this.inner.select(query, dataset);
      }
    }
    // Seven records numbered 1 to 24,007: three ranges of 10,000 numbers, or one.
    for (const [cap, pages] of [
      [10_000, 3],
      [undefined, 1],
    ] as const) {
      const store = new Counting(await storeWith(7), cap);
      const records = new ConsignmentIndex(store, queries);
      await records.ready();
      // The count, then the highest number where there are ranges to end, or the start literals where
      // there is no cap (none here, so the long way: one range that holds every number), then the pages.
      expect(store.selects - 2, `row cap ${cap}`).to.equal(pages);
      for (let i = 0; i < 7; i++)
        expect(
          (await records.byIdentifier(i % 2 === 0 ? 'did:web:a.example' : 'did:web:b.example', identifierOf(i)))?.consignment,
        ).to.equal(`urn:dataspace:consignment:${i}`);
    }
  });

  it('reads one svc:startRecord literal a record where there is one for each, and the nine fields where not', async () => {
    const long = (await readRecords(await storeWith(7), queries)).records;
    const withLiterals = async (edit: (ops: ChangeOp[]) => ChangeOp[]) => {
      const store = await storeWith(7);
      await (
        await store.commit({ ops: edit(long.flatMap(({ updated, ...record }) => startRecordOps(record, updated))) })
      ).durable;
      return store;
    };
    /** Counts the selects and keeps their texts. */
    class Counting extends DelegatingStore {
      texts: string[] = [];
      override async select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
        this.texts.push(query);
        return this.inner.select(query, dataset);
      }
    }
    const all = new Counting(await withLiterals((ops) => ops));
    const read = await readRecords(all, queries);
    expect(read.records).to.have.deep.members(long).and.to.have.length(7);
    expect(all.texts).to.have.length(2);
    expect(all.texts[1]).to.contain('svc:startRecord');
    // One missing; one missing and another's doubled (a count alone would not tell): the long way, same records.
    const insertOf = (ops: ChangeOp[], n: number) => ops.filter((op) => op.op === 'insert')[n];
    for (const edit of [
      (ops: ChangeOp[]) => ops.filter((op) => op !== insertOf(ops, 3)),
      (ops: ChangeOp[]) => [
        ...ops.filter((op) => op !== insertOf(ops, 3)),
        {
          op: 'insert',
          nquads: (insertOf(ops, 4) as { nquads: string }).nquads.replace('2026-11-22T00:00:04.5Z', '2026-11-22T00:00:09.5Z'),
        } as ChangeOp,
      ],
    ]) {
      const store = new Counting(await withLiterals(edit));
      expect((await readRecords(store, queries)).records).to.have.deep.members(long);
      expect(store.texts.at(-1)).to.contain('consignment records whose Create');
    }
    // The node's stamps (core/rdf/date-times.ts) are what the embedded store gives back: its canonical xsd:dateTime.
    const instants = [
      '2026-11-24T01:35:19.420Z',
      '2026-11-24T01:35:19.000Z',
      '2026-11-24T01:35:19.100Z',
      '2026-11-24T01:35:20.020Z',
      '2026-11-24T01:35:19.123Z',
    ];
    const times = instants.map((t) => stamp(new Date(t)));
    const oxigraph = new OxigraphStore();
    await (
      await oxigraph.commit({
        ops: [
          {
            op: 'insert',
            nquads: times.map((t, i) => `<urn:s> <urn:p:${i}> "${t}"^^<http://www.w3.org/2001/XMLSchema#dateTime> <urn:g> .\n`).join(''),
          },
        ],
      })
    ).durable;
    for (const [i, time] of times.entries()) {
      const row = nth(await oxigraph.select(`SELECT (STR(?o) AS ?v) WHERE { GRAPH <urn:g> { <urn:s> <urn:p:${i}> ?o } }`), 0);
      expect(
        packedRecord({ ...nth(long, 0), created: time, updated: time })
          .split(' ')
          .slice(6, 8),
        time,
      ).to.deep.equal([row.get('v')!.value, row.get('v')!.value]);
    }
    // The literal is the packed row the long read unpacks, awkward identifier included.
    expect(packedRecord(long.find((r) => r.identifier === identifierOf(5))!)).to.equal(
      '20006 urn:dataspace:consignment:5 did:web:b.example REF%205%20%25%20%22quoted%22%20%C3%A9%E2%98%83%09%2B urn%3Auuid%3A00000000-0000-4000-8000-000000000005 ' +
        'urn:uuid:10000000-0000-4000-8000-000000000005 2026-11-22T00:00:00.123Z 2026-11-22T00:00:05.5Z published',
    );
  });

  it('carries the route in the literal where the record knows it, and reads it back, awkward locations and an empty route included', async () => {
    const long = (await readRecords(await storeWith(3), queries)).records;
    expect(
      long.every((r) => r.routes === undefined),
      'the long way knows no route',
    ).to.equal(true);
    const routes = [['GBFXT', 'NLRTM'], [], ['urn:x:a location, with "quotes" % é', 'r:']];
    const routed = long.map((record, i) => ({ ...record, routes: routes[i] }));
    const store = await storeWith(3);
    await (
      await store.commit({ ops: routed.flatMap(({ updated, ...record }) => startRecordOps(record, updated)) })
    ).durable;
    const read = await readRecords(store, queries);
    expect(read.records).to.have.deep.members(routed);
    expect(packedRecord(nth(routed, 0)).split(' ').at(-1)).to.equal('r:GBFXT,NLRTM');
    expect(packedRecord(nth(routed, 1)).split(' ').at(-1)).to.equal('r:');
    expect(packedRecord(nth(long, 0)).split(' ')).to.have.length(9);
    // The write path's records keep the route, so an event's literal (no route of its own) still carries it.
    const records = new ConsignmentIndex(store, queries);
    await records.ready();
    expect((await records.byGlobalId(nth(routed, 2).globalId))?.routes).to.deep.equal(routes[2]);
  });

  it('reads the id sent beside the globalId the long way and from the literal, and the index finds the record by it', async () => {
    const store = await storeWith(3);
    const sentId = 'urn:ucr:24PLP 1 % é';
    const meta = new NQuadsBuilder(GRAPHS.metadata).literal('urn:dataspace:consignment:1', svc('sentId'), sentId);
    await (
      await store.commit({ ops: [{ op: 'insert', nquads: meta.toString() }] })
    ).durable;
    const long = (await readRecords(store, queries, 5_000)).records.sort((a, b) => a.seq - b.seq);
    expect(long.map((r) => r.sentId)).to.deep.equal([undefined, sentId, undefined]);
    await (
      await store.commit({ ops: long.flatMap(({ updated, ...record }) => startRecordOps(record, updated)) })
    ).durable;
    expect(packedRecord(nth(long, 1)).split(' ').at(-1)).to.equal(`s:${encodeURIComponent(sentId)}`);
    expect((await readRecords(store, queries)).records).to.have.deep.members(long);
    const records = new ConsignmentIndex(store, queries);
    await records.complete();
    expect((await records.bySentId(sentId))?.consignment).to.equal('urn:dataspace:consignment:1');
    expect((await records.named(sentId)).map((e) => e.iri)).to.deep.equal(['urn:dataspace:consignment:1']);
    expect(await records.bySentId('urn:ucr:24PLP')).to.equal(undefined);
  });

  it('is an error rather than an index with records missing, when a server cuts an answer short', async () => {
    const records = new ConsignmentIndex(new CappedStore(await storeWith(7), 1), queries);
    let error: Error | undefined;
    await records.ready().catch((e: Error) => {
      error = e;
    });
    expect(error?.message).to.match(/lists 7 consignment records but the paged read found [1-6]/);
  });

  it('loads in the background: ready() waits for the records, and tells a failed read to whoever waits', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((ok) => {
      release = ok;
    });
    class SlowStore extends DelegatingStore {
      override async select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
        await gate;
        return this.inner.select(query, dataset);
      }
    }
    const records = new ConsignmentIndex(new SlowStore(await storeWith(3)), queries);
    records.startLoading();
    let ready = false;
    const waiting = records.ready().then(() => {
      ready = true;
    });
    await new Promise((ok) => setTimeout(ok, 20));
    expect(ready).to.equal(false);
    release();
    await waiting;
    expect((await records.byIdentifier('did:web:a.example', 'REF-2'))?.consignment).to.equal('urn:dataspace:consignment:2');

    const failing = new ConsignmentIndex(new CappedStore(await storeWith(7), 1), queries);
    failing.startLoading();
    let error: Error | undefined;
    await failing.ready().catch((e: Error) => {
      error = e;
    });
    expect(error?.message).to.match(/paged read found/);
  });

  it('moves a record to its new identifier when it is remembered again', async () => {
    const records = new ConsignmentIndex(await storeWith(2), queries);
    await records.ready();
    const r = (await records.byIdentifier('did:web:a.example', 'REF-0'))!;
    await records.accepted(
      { kind: 'consignment', activityType: 'Update', consignment: { ...r, identifier: 'RENAMED' }, graph: r.stateGraph },
      stamp(new Date('2026-11-23T00:00:00.000Z')),
    );
    expect(await records.byIdentifier('did:web:a.example', 'REF-0')).to.equal(undefined);
    expect((await records.byIdentifier('did:web:a.example', 'RENAMED'))?.globalId).to.equal(r.globalId);
    expect((await records.named('RENAMED')).map((e) => e.globalId)).to.deep.equal([r.globalId]);
    expect(await records.named('REF-0')).to.deep.equal([]);
    // The time as a restart reads it back from the record's literal (the store's canonical form).
    expect((await records.byGlobalId(r.globalId))?.updated).to.equal('2026-11-23T00:00:00Z');
  });
});
