import type { QueryBank } from '../queries/query-bank.js';
import { int } from '../queries/query-bank.js';
import { GRAPHS, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import { iriToString } from '../rdf/terms.js';
import type { ChangeOp, QuadStore } from '../ports/quad-store.js';
import { nextTurn } from '../util/next-turn.js';
import { pagesInOrder } from '../util/pages-in-order.js';
import { hasLength } from '../util/tuple.js';
import { seqRanges } from './record-pages.js';
import type { ConsignmentRecord } from './consignment-record.js';

export type { ConsignmentRecord };

/** A record as the start's read gives it: the write path's fields, and the read index's updated. */
export interface StoredRecord extends ConsignmentRecord {
  updated: string;
}

/** Every record the store held, and how many it counted before reading them (the caller's check). */
export interface RecordsRead {
  records: StoredRecord[];
  count: number;
}

/** How a start record writes the route: `r:` and the locations, each percent-encoded, separated by commas. */
const ROUTE_FIELD = 'r:';
/** How a packed record writes the id sent beside the globalId: `s:` and the id, percent-encoded. */
const SENT_ID_FIELD = 's:';

const packedRoute = (routes: readonly string[]): string => ROUTE_FIELD + routes.map(encodeURIComponent).join(',');

function unpackedRoute(field: string): string[] {
  const text = field.slice(ROUTE_FIELD.length);
  return text === '' ? [] : text.split(',').map(decodeURIComponent);
}

/**
 * A record from its packed form (consignment-records-page.rq, packedRecord): nine fields, the strings
 * percent-encoded, then the optional ones each by its prefix: the route (`r:`, in a start record
 * written since it carried the route) and the id sent beside the globalId (`s:`).
 */
export function unpacked(text: string | undefined): StoredRecord {
  const all = text?.split(' ') ?? [];
  const fields = all.slice(0, 9);
  if (!hasLength(fields, 9)) throw new Error(`A consignment record row has ${all.length} fields, not 9 or more`);
  const [seq, consignment, owner, identifier, globalId, stateGraph, created, updated, status] = fields;
  const record: StoredRecord = {
    seq: Number(seq),
    consignment,
    owner,
    identifier: decodeURIComponent(identifier),
    globalId: decodeURIComponent(globalId),
    stateGraph,
    created,
    updated,
    status: decodeURIComponent(status),
  };
  for (const field of all.slice(9)) {
    if (field.startsWith(ROUTE_FIELD)) record.routes = unpackedRoute(field);
    else if (field.startsWith(SENT_ID_FIELD)) record.sentId = decodeURIComponent(field.slice(SENT_ID_FIELD.length));
    else throw new Error(`A consignment record's optional field starts with neither ${ROUTE_FIELD} nor ${SENT_ID_FIELD}`);
  }
  return record;
}

/**
 * The packed form consignment-records-page.rq writes, made in the node (its times are stamps, the form
 * a read gives back: core/rdf/date-times.ts), and the
 * route where the record knows it, so that a start reads no route either (policy/route-locations.rq
 * alone is a large share of a start: bench/results/2026-12-08-comment-figures.md).
 */
export function packedRecord(record: StoredRecord): string {
  const { seq, consignment, owner, identifier, globalId, stateGraph, created, updated, status, routes, sentId } = record;
  const fields = [
    seq,
    consignment,
    owner,
    encodeURIComponent(identifier),
    encodeURIComponent(globalId),
    stateGraph,
    created,
    updated,
    encodeURIComponent(status),
  ];
  if (routes !== undefined) fields.push(packedRoute(routes));
  if (sentId !== undefined) fields.push(SENT_ID_FIELD + encodeURIComponent(sentId));
  return fields.join(' ');
}

/**
 * The record as one literal (svc:startRecord), replacing the one it had unless it is `created` now:
 * written with every accepted activity, in the commit that changes the record (each one sets its
 * `updated`), so that a start reads one pattern a record instead of joining nine
 * (consignment-start-records.rq). A Create sends no delete: on a SPARQL server it would split the
 * activity's one INSERT DATA in two.
 */
export function startRecordOps(record: ConsignmentRecord, updated: string, created = false): ChangeOp[] {
  const insert: ChangeOp = {
    op: 'insert',
    nquads: new NQuadsBuilder(GRAPHS.metadata)
      .literal(record.consignment, svc('startRecord'), packedRecord({ ...record, updated }))
      .toString(),
  };
  if (created) return [insert];
  return [
    {
      op: 'deleteMatching',
      subject: iriToString(record.consignment),
      predicate: iriToString(svc('startRecord')),
      object: null,
      graph: GRAPHS.metadata,
    },
    insert,
  ];
}

/**
 * Every record from its svc:startRecord literal, in one query (a store without a row cap), or
 * undefined unless there is exactly one for each of the `count` records: a data dir written before
 * the literals, or imported from one, is read the long way.
 */
async function startRecords(store: QuadStore, queries: QueryBank, count: number): Promise<StoredRecord[] | undefined> {
  const rows = await store.select(queries.text('ingest/consignment-start-records'));
  if (rows.length !== count) return undefined;
  const records = rows.map((row) => unpacked(row.get('record')?.value));
  return new Set(records.map((r) => r.consignment)).size === count ? records : undefined;
}

/**
 * Reads every record in pages by the sequence number of its Create, two pages in flight so the node
 * reads one answer while the server writes the next: on a SPARQL server no answer grows with the
 * store or exceeds its row cap, and no ORDER BY or OFFSET makes the server sort or skip. A store
 * without a cap (the embedded one) is read in one range unless `pageSeqs` is given (seqRanges).
 */
export async function readRecords(store: QuadStore, queries: QueryBank, pageSeqs = store.rowCap): Promise<RecordsRead> {
  // Counted before the highest number is read: a record counted then has a number the pages reach.
  const [countRow] = await store.select(queries.text('ingest/consignment-count'));
  const count = Number(countRow?.get('count')?.value ?? 0);
  await nextTurn();
  const packed = pageSeqs === undefined ? await startRecords(store, queries, count) : undefined;
  if (packed) return { records: packed, count };
  const { starts, size } = await seqRanges(pageSeqs, async () => {
    const [maxRow] = await store.select(queries.text('ingest/consignment-seq-max'));
    return Number(maxRow?.get('max')?.value ?? 0);
  });
  const records: StoredRecord[] = [];
  const page = (after: number) =>
    store.select(queries.bind('ingest/consignment-records-page', { after: int(after), upto: int(after + size) }));
  await pagesInOrder(starts, page, 2, (rows) => {
    for (const row of rows) records.push(unpacked(row.get('record')?.value));
  });
  return { records, count };
}
