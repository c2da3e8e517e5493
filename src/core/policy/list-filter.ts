import type { ConsignmentEntry } from '../ports/consignment-catalog.js';

/** Whose data a read shows (a list's consignments, a view's graphs): the caller's organisation's, others' shared with it, or both. */
export type Scope = 'own' | 'shared' | 'all';

export const SCOPES: readonly Scope[] = ['own', 'shared', 'all'];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/**
 * What a list of consignments (or of their documents) is narrowed to, each condition answered from
 * the consignment index (core/ports/memory-consignment-catalog.ts): `updatedSince` from update order, `status`
 * and `location` from their lists in publication order, `scope` from the owner lists.
 */
export interface ListFilter {
  /** Only consignments whose record changed at or after this time (ms since the epoch). */
  updatedSince?: number;
  /** Only consignments in this status (core/activities/status.ts). */
  status?: string;
  /** Only consignments whose route passes this location (a UN/LOCODE as routes hold it: upper case). */
  location?: string;
  scope: Scope;
}

export const NO_FILTER: ListFilter = { scope: 'all' };

export const isFiltered = (filter: ListFilter): boolean =>
  filter.updatedSince !== undefined || filter.status !== undefined || filter.location !== undefined || filter.scope !== 'all';

/** Whether the consignment meets every condition of the filter, for a reader of organisation `org` (coverage is checked apart). */
export function meets(filter: ListFilter, org: string, entry: ConsignmentEntry): boolean {
  if (filter.scope !== 'all' && (entry.owner === org) !== (filter.scope === 'own')) return false;
  if (filter.status !== undefined && entry.record.status !== filter.status) return false;
  if (filter.location !== undefined && !entry.locations.has(filter.location)) return false;
  return filter.updatedSince === undefined || entry.updatedMs >= filter.updatedSince;
}
