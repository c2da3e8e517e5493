import type { ConsignmentRecord } from '../catalog/records.js';
import type { Bindings } from '../ports/quad-store.js';

/** A consignment the caller may read: its record, when it last changed and its place in publication order. */
export interface VisibleConsignment extends ConsignmentRecord {
  updated: string;
  seq: number;
}

/** One row of a page of documents across the consignments a caller may read. */
export interface VisibleDocumentRow {
  document: string;
  consignment: string;
  globalId: string;
  docSeq: number;
}

/** A document proposed for a page, with the consignment it belongs to (which never changes). */
export interface DocumentCandidate {
  document: string;
  consignment: string;
  docSeq: number;
}

/** A consignment record as the queries that read records answer it (views/visible-consignments.rq and others). */
export function visibleConsignment(row: Bindings): VisibleConsignment {
  const v = (name: string) => row.get(name)!.value;
  return {
    consignment: v('consignment'),
    owner: v('owner'),
    globalId: v('globalId'),
    identifier: v('identifier'),
    stateGraph: v('stateGraph'),
    created: v('created'),
    updated: v('updated'),
    status: v('status'),
    seq: Number(v('seq')),
  };
}
