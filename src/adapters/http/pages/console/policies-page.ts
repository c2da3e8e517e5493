import type { Policy } from '../../../../core/policy/policy-rdf.js';
import { html, type Html } from '../html.js';
import { csrfField, layout, type PageFrame } from './layout.js';

/** What the grant form was filled with, kept when it comes back with a problem. */
export interface GrantForm {
  role?: string;
  countries?: string;
  locations?: string;
  consignments?: string;
}

const list = (values: string[]): string => (values.length === 0 ? '' : values.join(', '));

/** A forwarder's data-sharing policies, each with a withdraw button, and the form that grants a new one. */
export function policiesPage(frame: PageFrame, policies: Policy[], form: GrantForm = {}): Html {
  const csrf = frame.csrf ?? '';
  const rows = policies.map(
    (p) => html`<tr data-policy="${p.id}">
<td>${p.role}</td>
<td>${list(p.countries)}</td>
<td>${list(p.locations)}</td>
<td>${p.consignments.length === 0 ? 'all' : list(p.consignments)}</td>
<td>${p.created ?? ''}</td>
<td><form method="post" action="/console/policies/${encodeURIComponent(p.id)}/withdraw" class="inline">${csrfField(csrf)}<button type="submit" class="danger">Withdraw</button></form></td>
</tr>`,
  );
  const role = form.role ?? 'borderAgency';
  return layout(
    frame,
    html`
${
  policies.length === 0
    ? html`<p class="empty">No policy: only your organisation reads your consignments.</p>`
    : html`<table class="list" id="policies">
<thead><tr><th>Reader role</th><th>Countries</th><th>Locations</th><th>Consignments</th><th>Granted</th><th></th></tr></thead>
<tbody>${rows}</tbody>
</table>`
}
<h2>Grant</h2>
<form method="post" action="/console/policies" class="card" id="grant">
${csrfField(csrf)}
<label>Reader role <select name="role">
<option value="borderAgency"${role === 'borderAgency' ? html` selected` : ''}>Border agency (by country)</option>
<option value="locationOperator"${role === 'locationOperator' ? html` selected` : ''}>Location operator (by UN/LOCODE)</option>
</select></label>
<label>Countries (border agencies; ISO codes, comma-separated) <input name="countries" value="${form.countries ?? ''}" placeholder="GB, NL"></label>
<label>Locations (location operators; UN/LOCODEs, comma-separated) <input name="locations" value="${form.locations ?? ''}" placeholder="GBFXT"></label>
<label>Only these consignments (globalIds, comma-separated; empty for all) <input name="consignments" value="${form.consignments ?? ''}"></label>
<button type="submit">Grant</button>
</form>`,
  );
}

/** The JSON body the API's POST /policies takes, from the form's comma-separated fields. */
export function policyRequest(form: GrantForm): Record<string, unknown> {
  const split = (value: string | undefined): string[] => (value ?? '').split(/[\s,]+/).filter((v) => v.length > 0);
  const body: Record<string, unknown> = { role: form.role };
  if (split(form.countries).length > 0) body.countries = split(form.countries);
  if (split(form.locations).length > 0) body.locations = split(form.locations);
  if (split(form.consignments).length > 0) body.consignments = split(form.consignments);
  return body;
}
