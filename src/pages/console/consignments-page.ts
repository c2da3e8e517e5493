import type { VisibleConsignment } from '../../policy/visible-records.js';
import { html, type Html } from '../html.js';
import { layout, type PageFrame } from './layout.js';

export const consignmentHref = (globalId: string): string => `/console/consignments/${encodeURIComponent(globalId)}`;

export interface ConsignmentList {
  items: VisibleConsignment[];
  /** The query searched for, when the page answers a search. */
  search?: string;
  /** The cursor of the next page, when there is one. */
  next?: string;
}

/** The consignments the caller may read: one page of the API's list, or the one a search names. */
export function consignmentsPage(frame: PageFrame, list: ConsignmentList): Html {
  const rows = list.items.map((c) => html`<tr>
<td><a href="${consignmentHref(c.globalId)}">${c.identifier}</a></td>
<td class="mono">${c.globalId}</td>
<td>${c.owner}</td>
<td>${c.status ?? ''}</td>
<td>${c.updated}</td>
</tr>`);
  return layout(frame, html`
<form method="get" action="/console/consignments" class="search" role="search">
<label>Find by globalId, identifier or activity urn <input type="search" name="q" value="${list.search ?? ''}" required></label>
<button type="submit">Find</button>
${list.search !== undefined ? html`<a href="/console/consignments">Show all</a>` : ''}
</form>
${list.items.length === 0
    ? html`<p class="empty">${list.search !== undefined ? `No consignment ${list.search} is visible to your organisation.` : 'No consignment is visible to your organisation yet.'}</p>`
    : html`<table class="list" id="consignments">
<thead><tr><th>Identifier</th><th>globalId</th><th>Owner</th><th>Status</th><th>Updated</th></tr></thead>
<tbody>${rows}</tbody>
</table>`}
${list.next ? html`<p class="paging"><a rel="next" href="/console/consignments?cursor=${list.next}">Next page</a></p>` : ''}`);
}
