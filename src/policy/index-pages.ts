import { pagesInOrder, seqRanges } from '../catalog/record-pages.js';
import type { QueryBank } from '../queries/query-bank.js';
import { int } from '../queries/query-bank.js';
import type { Bindings, QuadStore } from '../store/quad-store.js';
import type { VisibleConsignment } from './visible-records.js';

/** One page of the read index's load: the records, routes and documents of a range of sequence numbers. */
export interface IndexPage {
  records: VisibleConsignment[];
  routes: { consignment: string; location: string }[];
  documents: { seq: number; document: string; consignment: string }[];
}

function packed(row: Bindings, name: string, count: number): string[] {
  const fields = row.get(name)?.value.split(' ') ?? [];
  if (fields.length !== count) throw new Error(`A ${name} row of the read index has ${fields.length} fields, not ${count}`);
  return fields;
}

/** A record from its packed row (policy/consignment-index-page.rq). */
function record(row: Bindings): VisibleConsignment {
  const [seq, consignment, owner, identifier, globalId, stateGraph, created, updated, status] = packed(row, 'record', 9);
  return {
    seq: Number(seq), consignment, owner, identifier: decodeURIComponent(identifier), globalId: decodeURIComponent(globalId),
    stateGraph, created, updated, status: decodeURIComponent(status),
  };
}

/**
 * Reads every consignment record, route location and document in ranges of sequence numbers, two
 * ranges in flight, handing each page to `take` in order: on a SPARQL server no answer grows with the
 * store, and the server scans an index instead of writing every record in one answer (at 100k on
 * Virtuoso the one unpaged query ran past its 30 s limit). A store without a row cap (the embedded
 * one) is read in one range unless `pageSeqs` is given. Resolves with how many consignment records
 * the store holds, for the caller to check it read them all.
 */
export async function readIndexPages(store: QuadStore, queries: QueryBank, take: (page: IndexPage) => void, pageSeqs = store.rowCap): Promise<number> {
  // Counted before the highest number is read: the node writes while this load runs, and a record
  // counted then has a number the pages reach (a later one may be read too, which the caller allows).
  const [countRow] = await store.select(queries.text('ingest/consignment-count'));
  const [maxRow] = await store.select(queries.text('policy/index-seq-max'));
  const maxSeq = Number(maxRow?.get('max')?.value ?? 0);
  const { starts, size } = seqRanges(maxSeq, pageSeqs);
  const read = async (after: number): Promise<IndexPage> => {
    const range = { after: int(after), upto: int(after + size) };
    const [records, routes, documents] = await Promise.all(
      ['policy/consignment-index-page', 'policy/route-locations-page', 'policy/document-order-page'].map((name) => store.select(queries.bind(name, range))),
    );
    return {
      records: records.map(record),
      routes: routes.map((row) => {
        const [consignment, location] = packed(row, 'route', 2);
        return { consignment, location: decodeURIComponent(location) };
      }),
      documents: documents.map((row) => {
        const [seq, document, consignment] = packed(row, 'entry', 3);
        return { seq: Number(seq), document, consignment };
      }),
    };
  };
  await pagesInOrder(starts, read, 2, take);
  return Number(countRow?.get('count')?.value ?? 0);
}
