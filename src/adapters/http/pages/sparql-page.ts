import type { Principal } from '../../../core/auth/principal.js';
import { html, jsonBlock, type Html } from './html.js';
import type { ExampleQuery } from './sparql-examples.js';

export interface SparqlPageConfig {
  /** Where YASGUI sends queries: the endpoint's path on the page's own origin. */
  endpoint: string;
  /** The endpoint's public address, shown to the reader. */
  shownEndpoint: string;
  examples: ExampleQuery[];
}

/** The SPARQL page: YASGUI (served from this node) on the endpoint, one tab per example query. */
export function sparqlPage(principal: Principal, config: SparqlPageConfig): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>SPARQL · supply-chain data-space node</title>
<link rel="stylesheet" href="/assets/yasgui/yasgui.min.css">
<link rel="stylesheet" href="/assets/pages.css">
</head>
<body>
<nav class="topnav">
<a href="/console/consignments">Console</a>
<a href="/supply-chain/data-space/sparql">SPARQL</a>
<a href="/docs">API reference</a>
<span class="who">${principal.email} · ${principal.org.name}</span>
</nav>
<main class="wide">
<h1>SPARQL</h1>
<p>Queries run over the graphs ${principal.org.name} may read, as on <code>${config.shownEndpoint}</code> with your session. Each tab is an example; edit and press the run button (or Ctrl-Enter).</p>
<div id="yasgui"></div>
</main>
<script type="application/json" id="sparql-config">${jsonBlock({ endpoint: config.endpoint, examples: config.examples })}</script>
<script src="/assets/yasgui/yasgui.min.js"></script>
<script src="/assets/sparql-init.js"></script>
</body>
</html>`;
}
