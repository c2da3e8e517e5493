import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { STATUSES, isStatus } from '../../core/activities/status.js';
import { BadRequest } from '../../core/errors.js';
import { isFiltered, isScope, type ListFilter } from '../../core/policy/list-filter.js';
import type { ListKey } from '../../core/policy/publication-order.js';
import { decodeCursor, encodeCursor, queryString } from './paging.js';
import { readInstant } from './query-instant.js';
import { seal, unseal } from '../../core/util/sealed-cursors.js';

/** The filters a list may take (docs/decisions.md, "List filters"). */
export type FilterName = 'updatedSince' | 'status' | 'location' | 'scope';

/**
 * The filters of the request among `names`, each checked; a parameter given twice or malformed is a 400
 * naming it. `blankIsAbsent`: a form's empty field means "any" (the console), not a malformed value.
 */
export function readFilter(req: Request, names: readonly FilterName[], blankIsAbsent = false): ListFilter {
  const filter: ListFilter = { scope: 'all' };
  const given = (name: FilterName) => {
    const value = names.includes(name) ? queryString(req, name) : undefined;
    return blankIsAbsent && value?.trim() === '' ? undefined : value;
  };
  const since = given('updatedSince');
  if (since !== undefined) filter.updatedSince = readInstant('updatedSince', since);
  const status = given('status');
  if (status !== undefined) {
    if (!isStatus(status)) throw new BadRequest(`status must be one of ${STATUSES.join(', ')}`);
    filter.status = status;
  }
  const location = given('location');
  if (location !== undefined) {
    // Routes hold UN/LOCODEs upper-cased (core/activities/routing.ts); `nlrtm` means NLRTM.
    if (!/^[A-Za-z0-9 ]{2,35}$/.test(location))
      throw new BadRequest('location must be a UN/LOCODE such as NLRTM (2 to 35 letters and digits)');
    filter.location = location.toUpperCase();
  }
  const scope = given('scope');
  if (scope !== undefined) {
    if (!isScope(scope)) throw new BadRequest('scope must be own, shared or all');
    filter.scope = scope;
  }
  return filter;
}

/** Refuses a parameter the list does not take: a misspelt filter would otherwise answer the whole list. */
export function refuseUnknown(req: Request, names: readonly string[]): void {
  for (const name of Object.keys(req.query)) {
    if (names.includes(name)) continue;
    throw new BadRequest(`${name} is not a parameter of this list; it takes ${names.length === 0 ? 'none' : names.join(', ')}`);
  }
}

/** The lists that take filters: a cursor of one is not a place in the other. */
export type FilteredList = 'consignments' | 'documents';

/** What a cursor is bound to: the list and the filter it was issued under, so it is never replayed under another. */
const fingerprint = (list: FilteredList, filter: ListFilter): string =>
  createHash('sha256')
    .update(JSON.stringify([list, filter.updatedSince ?? null, filter.status ?? null, filter.location ?? null, filter.scope]))
    .digest('base64url')
    .slice(0, 12);

/** A cursor for the next page: the plain form (paging.ts) for an unfiltered list, else bound to the list and filter. */
export function encodeListCursor(filter: ListFilter, key: ListKey, list: FilteredList = 'consignments'): string {
  if (!isFiltered(filter)) return encodeCursor(key.seq);
  return seal(`f1.${fingerprint(list, filter)}.${key.ms ?? '-'}.${key.seq}`);
}

/** Where the page starts: undefined at the beginning; a cursor issued under another list or filter is refused. */
export function decodeListCursor(filter: ListFilter, cursor: string | undefined, list: FilteredList = 'consignments'): ListKey | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const match = /^f1\.([A-Za-z0-9_-]{12})\.(-|\d{1,15})\.(\d{1,15})$/.exec(unseal(cursor) ?? '');
  if (!match) {
    const seq = decodeCursor(cursor);
    if (isFiltered(filter))
      throw new BadRequest(
        'cursor was issued for the list without filters: send it without updatedSince, status, location or scope, or start again without a cursor',
      );
    return { seq };
  }
  if (match[1] !== fingerprint(list, filter))
    throw new BadRequest(
      'cursor was issued for the list with other filters: send it with the updatedSince, status, location and scope it came with',
    );
  return match[2] === '-' ? { seq: Number(match[3]) } : { ms: Number(match[2]), seq: Number(match[3]) };
}
