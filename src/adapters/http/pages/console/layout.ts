import type { Principal } from '../../../../core/auth/principal.js';
import { html, type Html } from '../html.js';
import { CSRF_FIELD } from './csrf.js';

export interface PageFrame {
  title: string;
  principal?: Principal;
  csrf?: string;
  /** A one-line confirmation or problem shown above the content. */
  notice?: { kind: 'ok' | 'error'; text: string };
}

/** The hidden field every state-changing form carries. */
export const csrfField = (token: string): Html => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;

/** Every console page: the same head, navigation and signed-in line. */
export function layout(frame: PageFrame, content: Html): Html {
  const { principal } = frame;
  const nav = principal
    ? html`<nav class="topnav">
<a href="/console/consignments">Consignments</a>
${principal.org.role === 'freightForwarder' ? html`<a href="/console/policies">Policies</a>` : ''}
<a href="/console/deliveries">Deliveries to me</a>
<a href="/console/changes">Changes</a>
${principal.admin ? html`<a href="/console/users">Users</a>` : ''}
<a href="/supply-chain/data-space/sparql">SPARQL</a>
<a href="/docs">API reference</a>
<span class="who">${principal.email} · ${principal.org.name} (${principal.org.role})</span>
<form method="post" action="/console/logout" class="inline">${csrfField(frame.csrf ?? '')}<button type="submit">Log out</button></form>
</nav>`
    : html`<nav class="topnav"><a href="/console">Console</a> <a href="/docs">API reference</a></nav>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.title} · data-space console</title>
<link rel="stylesheet" href="/assets/pages.css">
</head>
<body>
${nav}
<main>
<h1>${frame.title}</h1>
${frame.notice ? html`<p class="notice ${frame.notice.kind}" role="status">${frame.notice.text}</p>` : ''}
${content}
</main>
</body>
</html>`;
}
