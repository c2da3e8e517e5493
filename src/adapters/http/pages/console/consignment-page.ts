import type { DeliveryRow } from '../../../../core/notify/outbox.js';
import { html, type Html } from '../html.js';
import { layout, type PageFrame } from './layout.js';
import { shortCode, timeline } from './timeline.js';

// A framed read view as the API serves it: JSON whose fields the page reads as they come.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const str = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);

/**
 * The API names documents at DATASPACE_BASE_URL; the page links to the same path on the address it
 * was opened at, where the browser holds the session (127.0.0.1 while the base URL says localhost).
 */
const onThisAddress = (href: string): string => {
  const url = new URL(href, 'http://node.invalid');
  return `${url.pathname}${url.search}`;
};

/**
 * Every revision's download link, oldest first: history holds the earlier ones, href the current one.
 * Plain links, no `download` attribute: a navigation asks for text/html, so the API answers with the
 * file (as an attachment), where a download request's bare Accept would get the JSON attachment.
 */
function revisions(d: Json): Json[] {
  const all = [...((d.history ?? []) as Json[]), { href: d.href, documentRevision: d.documentRevision }];
  return all.sort((a, b) => Number(a.documentRevision) - Number(b.documentRevision));
}

function documentsSection(documents: Json[]): Html {
  if (documents.length === 0) return html`<p class="empty">No documents.</p>`;
  return html`<table class="list" id="documents">
<thead><tr><th>Document</th><th>Type</th><th>Revision</th><th>Format</th><th>Revisions</th></tr></thead>
<tbody>${documents.map(
    (d) => html`<tr>
<td>${str(d.documentId)}</td>
<td>${str(d.documentType ?? shortCode(d.documentCode))}</td>
<td>${str(d.documentRevision)}</td>
<td>${str(d.metadata?.encodingFormat ?? '')}</td>
<td>${revisions(d).map((h) => html`<a class="download" href="${onThisAddress(str(h.href))}">revision ${str(h.documentRevision)}</a> `)}</td>
</tr>`,
  )}</tbody>
</table>`;
}

function deliveriesSection(deliveries: DeliveryRow[] | undefined, names: (org: string) => string): Html {
  if (deliveries === undefined) return html``;
  return html`<h2>Signals and their delivery</h2>
${
  deliveries.length === 0
    ? html`<p class="empty">No signals raised about this consignment.</p>`
    : html`<table class="list" id="deliveries">
<thead><tr><th>Signal</th><th>Published</th><th>Receiver</th><th>State</th><th>Attempts</th><th>Last answer</th></tr></thead>
<tbody>${deliveries.map(
        (d) => html`<tr>
<td>${d.type}</td><td>${d.published}</td><td>${names(d.receiver)}</td>
<td><span class="state ${d.state}">${d.state}</span></td><td>${d.attempts}</td>
<td>${d.lastStatus ?? ''} ${d.lastError ?? ''}${d.state === 'pending' && d.nextAttempt ? ` (next try ${d.nextAttempt})` : ''}</td>
</tr>`,
      )}</tbody>
</table>`
}`;
}

/**
 * One consignment as its timeline: the API's read view (same policy filter, same scope `all`) laid out
 * by date, its documents with every revision's download link, and for its owner the signals' delivery.
 */
export function consignmentPage(frame: PageFrame, view: Json, deliveries: DeliveryRow[] | undefined, names: (org: string) => string): Html {
  const entries = timeline(view);
  const summary: [string, unknown][] = [
    ['globalId', view.globalId],
    ['Identifier', view.identifier],
    ['Owner', names(str(view.owner))],
    ['Status', view.status],
    ['Created', view.created],
    ['Updated', view.updated],
    ['Description', view.summaryDescription],
    ['Transport mode', view.resolvedTransportMode?.label],
  ];
  return layout(
    frame,
    html`
<dl class="summary">${summary.filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => html`<dt>${k}</dt><dd>${str(v)}</dd>`)}</dl>
<p><a href="/supply-chain/data-space/consignments/${encodeURIComponent(str(view.globalId))}">As JSON (the API's read view)</a></p>
<h2>Timeline</h2>
${
  entries.length === 0
    ? html`<p class="empty">Nothing has happened yet.</p>`
    : html`<ol class="timeline" id="timeline">${entries.map(
        (e) => html`<li class="${e.kind}">
<time>${e.at}</time> <strong>${e.title}</strong>${e.detail ? html` <span class="detail">${e.detail}</span>` : ''}${e.publisher ? html` <span class="by">by ${names(e.publisher)}</span>` : ''}
</li>`,
      )}</ol>`
}
<h2>Documents</h2>
${documentsSection((view.documents ?? []) as Json[])}
${deliveriesSection(deliveries, names)}`,
  );
}
