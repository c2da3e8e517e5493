import { STATUSES } from '../../../../core/activities/status.js';
import type { VisibleConsignment } from '../../../../core/policy/visible-records.js';
import { html, type Html } from '../html.js';
import { layout, type PageFrame } from './layout.js';

export const consignmentHref = (globalId: string): string => `/console/consignments/${encodeURIComponent(globalId)}`;

export interface ConsignmentList {
  items: VisibleConsignment[];
  /** The query searched for, when the page answers a search. */
  search?: string;
  /** The cursor of the next page, when there is one. */
  next?: string;
  /** The list filters as entered (the API's names, list-filters.ts); blank ones are left out. */
  filter?: Partial<Record<'updatedSince' | 'status' | 'location' | 'scope', string>>;
}

/** The list's filters as a form that asks the API's own parameters (GET /consignments takes the same). */
function filterForm(filter: ConsignmentList['filter'] = {}): Html {
  const option = (value: string, label: string, chosen: string | undefined) =>
    html`<option value="${value}"${chosen === value ? html` selected` : ''}>${label}</option>`;
  return html`<form method="get" action="/console/consignments" class="filters" aria-label="Filter the list">
<label>Status <select name="status">${option('', 'any', filter.status)}${STATUSES.map((s) => option(s, s, filter.status))}</select></label>
<label>Route passes <input name="location" value="${filter.location ?? ''}" placeholder="UN/LOCODE, e.g. NLRTM" size="10"></label>
<label>Whose <select name="scope">${option('all', 'all', filter.scope)}${option('own', "my organisation's", filter.scope)}${option('shared', 'shared with us', filter.scope)}</select></label>
<label>Changed since <input name="updatedSince" value="${filter.updatedSince ?? ''}" placeholder="2026-11-27 or 2026-11-27T08:00:00Z" size="22"></label>
<button type="submit">Filter</button>
${Object.values(filter).some((v) => v !== undefined && v !== '' && v !== 'all') ? html`<a href="/console/consignments">Clear</a>` : ''}
</form>`;
}

/** The next page's address: the filters kept, the cursor the list gave. */
function nextHref(list: ConsignmentList): string {
  const params = new URLSearchParams(
    Object.entries(list.filter ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  );
  params.set('cursor', list.next!);
  return `/console/consignments?${params.toString()}`;
}

/** The consignments the caller may read: one page of the API's list, or the one a search names. */
export function consignmentsPage(frame: PageFrame, list: ConsignmentList): Html {
  const rows = list.items.map(
    (c) => html`<tr>
<td><a href="${consignmentHref(c.globalId)}">${c.identifier}</a></td>
<td class="mono">${c.globalId}</td>
<td>${c.owner}</td>
<td>${c.status ?? ''}</td>
<td>${c.updated}</td>
</tr>`,
  );
  return layout(
    frame,
    html`
<form method="get" action="/console/consignments" class="search" role="search">
<label>Find by globalId, identifier or activity urn <input type="search" name="q" value="${list.search ?? ''}" required></label>
<button type="submit">Find</button>
${list.search !== undefined ? html`<a href="/console/consignments">Show all</a>` : ''}
</form>
${list.search === undefined ? filterForm(list.filter) : ''}
${
  list.items.length === 0
    ? html`<p class="empty">${list.search !== undefined ? `No consignment ${list.search} is visible to your organisation.` : list.filter && list.next ? 'None on this part of the list; the next page goes on.' : list.filter ? 'No consignment visible to your organisation meets these filters.' : 'No consignment is visible to your organisation yet.'}</p>`
    : html`<table class="list" id="consignments">
<thead><tr><th>Identifier</th><th>globalId</th><th>Owner</th><th>Status</th><th>Updated</th></tr></thead>
<tbody>${rows}</tbody>
</table>`
}
${list.next ? html`<p class="paging"><a rel="next" href="${nextHref(list)}">Next page</a></p>` : ''}`,
  );
}
