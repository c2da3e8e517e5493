// The layout move's table: where each file of the flat src/ goes in the ports-and-adapters layout.
// Read by apply.mjs. A row is an old path and its new one; a row ending in "/" is a folder and
// takes every file under it (a file added there later follows the folder); the longest matching row
// wins. A file of src/ that no row takes makes apply.mjs stop and name it, so nothing lands by guess.
//
//   src/*.ts          the composition root: reads the settings, opens the store, wires the node
//   src/core/         the domain; imports only itself (core/ports/ holds what it needs from outside)
//   src/core/ports/   the interfaces the adapters implement, each with its in-memory implementation
//   src/adapters/     each technology the node speaks: Oxigraph, a SPARQL server, PostgreSQL, HTTP, CLI

/** The roots of the new layout: a path under one of them is already where it belongs. */
export const NEW_ROOTS = ['src/core/', 'src/adapters/'];

/** The composition root: the only files that name an adapter and a core module alike. */
export const COMPOSITION_ROOT = [
  'src/main.ts',
  'src/cli-main.ts',
  'src/node.ts',
  'src/node-contract.ts',
  'src/config.ts',
  'src/own-state.ts',
  'src/open-store.ts',
  'src/store-capabilities.ts',
  'src/store-config.ts',
  'src/run-replica.ts',
];

export const RULES = [
  // The composition root stays at src/ (and gathers the files that choose a backend or build a node).
  ...COMPOSITION_ROOT.map((path) => [path, path]),
  ['src/store/open-store.ts', 'src/open-store.ts'],
  ['src/store/store-config.ts', 'src/store-config.ts'],
  ['src/replicas/serving/run-replica.ts', 'src/run-replica.ts'],
  // Which SPARQL engine the endpoint runs on follows from what the opened store can do: the endpoint's own choice.
  ['src/endpoint/engine-for.ts', 'src/adapters/sparql-endpoint/engine-for.ts'],
  ['src/sparql-engine-for.ts', 'src/adapters/sparql-endpoint/engine-for.ts'],

  // The ground of the core: one error family, the logger, setting readers, where the data folders are.
  ['src/errors.ts', 'src/core/errors.ts'],
  ['src/error-names.ts', 'src/core/error-names.ts'],
  ['src/logger.ts', 'src/core/logger.ts'],
  ['src/log-destination.ts', 'src/core/log-destination.ts'],
  ['src/config-values.ts', 'src/core/config-values.ts'],
  ['src/project-paths.ts', 'src/core/project-paths.ts'],

  // Ports: what the core asks of a backend, each interface with its in-memory implementation.
  ['src/store/quad-store.ts', 'src/core/ports/quad-store.ts'],
  ['src/documents/blob-store.ts', 'src/core/ports/blob-store.ts'],
  ['src/catalog/consignment-catalog.ts', 'src/core/ports/consignment-catalog.ts'],
  ['src/changes/change-source.ts', 'src/core/ports/change-source.ts'],
  ['src/notify/receiver-ledger.ts', 'src/core/ports/receiver-ledger.ts'],
  ['src/notify/memory-ledger.ts', 'src/core/ports/memory-ledger.ts'],
  // A port's in-memory implementation beside it, where a reader of the port looks first.
  ['src/core/changes/change-index.ts', 'src/core/ports/memory-change-source.ts'],
  ['src/core/catalog/consignment-index.ts', 'src/core/ports/memory-consignment-catalog.ts'],

  // The domain.
  ['src/accounts/', 'src/core/accounts/'],
  ['src/activities/', 'src/core/activities/'],
  ['src/auth/', 'src/core/auth/'],
  ['src/catalog/', 'src/core/catalog/'],
  ['src/changes/', 'src/core/changes/'],
  ['src/documents/', 'src/core/documents/'],
  ['src/notify/', 'src/core/notify/'],
  ['src/policy/', 'src/core/policy/'],
  ['src/queries/', 'src/core/queries/'],
  ['src/quotas/', 'src/core/quotas/'],
  ['src/rdf/', 'src/core/rdf/'],
  // The settings table every concern's reader takes its names, defaults and bounds from.
  ['src/settings/', 'src/core/settings/'],
  ['src/registry/', 'src/core/registry/'],
  ['src/util/', 'src/core/util/'],
  ['src/validation/', 'src/core/validation/'],
  ['src/views/', 'src/core/views/'],
  // The store's decorators over the port: the change feed, the capacity guard, durable commits.
  ['src/store/', 'src/core/store/'],

  // Adapters. Oxigraph embedded: the store, its write-ahead log, snapshots and recovery, its wasm memory.
  ['src/store/oxigraph/', 'src/adapters/oxigraph/'],
  ['src/store/log/', 'src/adapters/oxigraph/log/'],
  ['src/store/recovery/', 'src/adapters/oxigraph/recovery/'],
  // A SPARQL 1.1 server (Virtuoso) over HTTP, and the Update text both stores write.
  ['src/store/sparql-server/', 'src/adapters/sparql-server/'],
  ['src/store/update-text.ts', 'src/adapters/sparql-server/update-text.ts'],
  // PostgreSQL: the replica set's shared state, leases and fencing, and the serving roles on it.
  ['src/replicas/', 'src/adapters/postgres/'],
  // The SPARQL endpoint participants query: protocol, guard, scheduler, parse and engine threads.
  ['src/endpoint/', 'src/adapters/sparql-endpoint/'],
  // HTTP: the app, routes, pages, the OpenAPI document; operations (metrics, probes, the data-dir lock).
  ['src/app.ts', 'src/adapters/http/app.ts'],
  ['src/http/', 'src/adapters/http/'],
  ['src/pages/', 'src/adapters/http/pages/'],
  ['src/openapi/', 'src/adapters/http/openapi/'],
  ['src/ops/', 'src/adapters/ops/'],
  // The command line.
  ['src/cli/', 'src/adapters/cli/'],
];

/** Folders of test/unit/ that mirror no folder of src/: they stay. */
export const UNIT_TEST_OWN = [
  'test/unit/docs/',
  'test/unit/bench/',
  'test/unit/helpers/',
  'test/unit/layout/',
  'test/unit/production-closure.test.ts',
];
