import type { ConsignmentEntry } from '../../core/ports/consignment-catalog.js';
import { canonicalGlobalId } from '../../core/catalog/identities.js';
import type { ConsignmentRecord, StoredRecord } from '../../core/catalog/records.js';
import { timeOf } from '../../core/catalog/update-order.js';

/** A catalog row as lookups and walks read it: the record's JSON and what the coverage rule and walks read beside it. */
export interface CatalogRow {
  record: StoredRecord;
  locations: string[];
  updated_ms: number;
}

export const entryOf = (row: CatalogRow): ConsignmentEntry => ({
  seq: Number(row.record.seq),
  iri: row.record.consignment,
  owner: row.record.owner,
  globalId: row.record.globalId,
  locations: new Set(row.locations),
  updatedMs: row.updated_ms,
  record: row.record,
});

/** The legacy column: a globalId's canonical form where the stored one differs (records stored before globalIds were kept canonical). */
const legacyOf = (globalId: string): string | null => {
  const canonical = canonicalGlobalId(globalId);
  return canonical === globalId ? null : canonical;
};

/** A record as the first fill writes it (catalog-fill-records.sql). */
export const fillRowOf = (record: StoredRecord) => ({
  iri: record.consignment,
  seq: record.seq,
  owner: record.owner,
  global_id: record.globalId,
  legacy_global_id: legacyOf(record.globalId),
  identifier: record.identifier,
  sent_id: record.sentId ?? null,
  status: record.status,
  updated_ms: timeOf(record.updated),
  locations: record.routes === undefined ? [] : [...new Set(record.routes)].sort(),
  record,
});

/**
 * The values of catalog-put.sql: the record as a write left it (`updated` set), the document it
 * registered, the sequence number the catalog then has the store up to, and the record's sent id.
 */
export function putValues(
  record: ConsignmentRecord & { updated: string },
  document: { iri: string; seq: number } | undefined,
  applied: number,
): unknown[] {
  const routes = record.routes === undefined ? null : [...new Set(record.routes)].sort();
  return [
    record.consignment,
    record.seq,
    record.owner,
    record.globalId,
    legacyOf(record.globalId),
    record.identifier,
    record.status,
    timeOf(record.updated),
    routes,
    JSON.stringify(routes === null ? record : { ...record, routes }),
    document?.iri ?? null,
    document?.seq ?? null,
    applied,
    record.sentId ?? null,
  ];
}
