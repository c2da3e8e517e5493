// YASGUI on this node's endpoint, with the session cookie, one tab per example. Autocompletion is
// limited to what needs no outside service (the class and property completers ask a vocabulary
// service on the internet), and tabs are not kept between visits so the examples are always fresh.
'use strict';
(function () {
  var config = JSON.parse(document.getElementById('sparql-config').textContent);
  // Absolute, on the address this page was opened at: YASGUI's error view parses the endpoint as a URL
  // and shows nothing for a bare path; the page's own origin keeps the session cookie and CSP's 'self'.
  var endpoint = new URL(config.endpoint, window.location.href).href;
  var requestConfig = { endpoint: endpoint, method: 'POST', withCredentials: true };
  var yasgui = new Yasgui(document.getElementById('yasgui'), {
    requestConfig: requestConfig,
    copyEndpointOnNewTab: true,
    endpointCatalogueOptions: {
      getData: function () {
        return [{ endpoint: endpoint }];
      },
    },
    persistenceId: null,
    populateFromUrl: false,
    autoAddOnInit: false,
    yasqe: { autocompleters: ['prefixes', 'variables'], persistenceId: null },
  });
  config.examples.forEach(function (example, i) {
    yasgui.addTab(i === 0, { name: example.title, yasqe: { value: example.query }, requestConfig: requestConfig });
  });
  window.yasgui = yasgui;
})();
