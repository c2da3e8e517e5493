import type { FeedItem } from '../../../../core/changes/change-walk.js';
import { html, type Html } from '../html.js';
import { layout, type PageFrame } from './layout.js';
import { consignmentHref } from './consignments-page.js';

const WORDS: Record<FeedItem['change'], string> = {
  'consignment-created': 'created',
  'consignment-updated': 'updated',
  'event-added': 'event added',
  'document-added': 'document added',
  'document-revised': 'document revised',
  'became-visible': 'shared with you',
  'became-invisible': 'no longer shared with you',
};

/** One page of the change feed (GET …/changes) as the signed-in organisation sees it, oldest first. */
export function changesPage(frame: PageFrame, items: FeedItem[], next: string, more: boolean): Html {
  return layout(
    frame,
    html`
${
  items.length === 0
    ? html`<p class="empty">Nothing more has changed in what your organisation may read.</p>`
    : html`<table class="list" id="changes">
<thead><tr><th>When</th><th>Consignment</th><th>What changed</th></tr></thead>
<tbody>${items.map(
        (i) => html`<tr>
<td>${i.published}</td>
<td>${i.change === 'became-invisible' ? html`<span class="mono">${i.globalId}</span>` : html`<a href="${consignmentHref(i.globalId)}" class="mono">${i.globalId}</a>`}</td>
<td>${WORDS[i.change]}${i.typeCode ? ` (${i.typeCode})` : ''}${i.revision ? ` (revision ${i.revision})` : ''}</td>
</tr>`,
      )}</tbody>
</table>`
}
<p class="paging"><a rel="next" href="/console/changes?after=${next}">${more ? 'Next page' : 'Check for newer changes'}</a></p>
<p class="hint">The same feed as GET /supply-chain/data-space/changes: keep the link to go on from here later.</p>`,
  );
}
