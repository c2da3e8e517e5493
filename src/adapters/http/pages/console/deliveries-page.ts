import type { ReceivedDelivery } from '../../../../core/notify/received-deliveries.js';
import { html, type Html } from '../html.js';
import { csrfField, layout, type PageFrame } from './layout.js';
import { consignmentHref } from './consignments-page.js';

/** The signals sent (or being sent) to the caller's notification endpoint, newest first. */
export function deliveriesPage(
  frame: PageFrame,
  endpoint: string | null,
  deliveries: ReceivedDelivery[],
  older: number | undefined,
  redeliver = false,
): Html {
  return layout(
    frame,
    html`
<p>Notification endpoint: ${endpoint ? html`<code id="endpoint">${endpoint}</code>` : html`<em id="endpoint">none registered</em> (PUT /supply-chain/data-space/notification-endpoint)`}</p>
${
  deliveries.length === 0
    ? html`<p class="empty">No signal has been sent to your organisation.</p>`
    : html`<table class="list" id="received">
<thead><tr><th>Signal</th><th>Consignment</th><th>Published</th><th>State</th><th>Attempts</th><th>Last answer</th><th>Delivered</th>${redeliver ? html`<th></th>` : ''}</tr></thead>
<tbody>${deliveries.map(
        (d) => html`<tr>
<td>${d.type}</td>
<td><a href="${consignmentHref(d.globalId)}" class="mono">${d.globalId}</a></td>
<td>${d.published}</td>
<td><span class="state ${d.state}">${d.state}</span></td>
<td>${d.attempts}</td>
<td>${d.lastStatus ?? ''} ${d.lastError ?? ''}${d.nextAttempt ? ` (next try ${d.nextAttempt})` : ''}</td>
<td>${d.completed ?? ''}</td>
${redeliver ? html`<td>${d.state === 'pending' ? '' : html`<form method="post" action="/console/deliveries/redeliver" class="inline">${csrfField(frame.csrf ?? '')}<input type="hidden" name="signal" value="${d.signal}"><button type="submit">Deliver again</button></form>`}</td>` : ''}
</tr>`,
      )}</tbody>
</table>`
}
${older !== undefined ? html`<p class="paging"><a rel="next" href="/console/deliveries?before=${older}">Older</a></p>` : ''}
<p class="hint">Receiving a signal does not let you read the consignment: its page opens only when its forwarder's policy covers you.</p>`,
  );
}
