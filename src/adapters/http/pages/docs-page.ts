import { html, type Html } from './html.js';

/** The API reference: Swagger UI (swagger-ui-dist, served from this node) reading /openapi.json. */
export function docsPage(): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · supply-chain data-space node</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="stylesheet" href="/assets/pages.css">
</head>
<body>
<nav class="topnav"><a href="/console">Console</a> <a href="/docs">API reference</a> <a href="/supply-chain/data-space/sparql">SPARQL</a></nav>
<div id="swagger-ui" data-spec-url="/openapi.json"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/assets/docs-init.js"></script>
</body>
</html>`;
}
