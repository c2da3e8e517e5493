import { Router } from 'express';
import { chooseOffer } from '../rdf-response.js';
import { DOCS_PATH, OPENAPI_PATH } from '../routes/reference.js';
import { SPARQL_PATH } from '../routes/sparql.js';
import { TOKEN_PATH } from '../routes/token.js';
import { OAUTH_METADATA_PATH } from '../routes/oauth-metadata.js';
import { html, PAGE_SECURITY_HEADERS } from './html.js';
import { projectVersion } from './project-version.js';

const API = '/supply-chain/data-space';

/** Where a newcomer goes from `/`, by name: the same list in the page and in the JSON index. */
const LINKS = {
  console: '/console',
  apiReference: DOCS_PATH,
  openapi: OPENAPI_PATH,
  sparql: SPARQL_PATH,
  login: '/authentication/login',
  token: TOKEN_PATH,
  oauthMetadata: OAUTH_METADATA_PATH,
  inbox: `${API}/inbox`,
  consignments: `${API}/consignments`,
  changes: `${API}/changes`,
  health: '/healthz',
} as const;

// JSON first, so curl's `*/*` and a missing Accept get the index; a browser asks for text/html by name.
const OFFERS = [{ mediaType: 'application/json' }, { mediaType: 'text/html' }] as const;

function page(baseUrl: string) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Supply-chain data-space node</title>
<link rel="stylesheet" href="/assets/pages.css">
</head>
<body>
<nav class="topnav"><a href="${LINKS.console}">Console</a> <a href="${LINKS.apiReference}">API reference</a> <a href="${LINKS.sparql}">SPARQL</a></nav>
<main>
<h1>Supply-chain data-space node</h1>
<p>This node at ${baseUrl} keeps consignments, their events and documents, and shares them under each organisation's policies.</p>
<ul>
<li><a href="${LINKS.console}">Console</a>: log in and see the consignments, policies, deliveries and changes you may see.</li>
<li><a href="${LINKS.apiReference}">API reference</a>: every operation (OpenAPI document at <a href="${LINKS.openapi}">${LINKS.openapi}</a>).</li>
<li><a href="${LINKS.sparql}">SPARQL</a>: query what you may see (after logging in).</li>
<li>Machine clients: OAuth 2.0 client credentials at <code>${LINKS.token}</code>, metadata at <a href="${LINKS.oauthMetadata}">${LINKS.oauthMetadata}</a>.</li>
</ul>
</main>
</body>
</html>`;
}

/**
 * GET /: the front door, open to anyone. A browser gets a small page leading to the console, the API
 * reference and the SPARQL page; a client gets a JSON index of the same places as absolute URLs.
 */
export function frontDoorRoutes(baseUrl: string): Router {
  const router = Router();
  const index = JSON.stringify({
    name: 'supply-chain data-space node',
    version: projectVersion(),
    links: Object.fromEntries(Object.entries(LINKS).map(([name, path]) => [name, `${baseUrl}${path}`])),
  });
  const body = page(baseUrl).text;
  router.get('/', (req, res) => {
    if (chooseOffer(req, res, OFFERS).mediaType === 'text/html') res.set(PAGE_SECURITY_HEADERS).type('html').send(body);
    else res.set('cache-control', 'no-cache').type('application/json').send(index);
  });
  return router;
}
