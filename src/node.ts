import { createApp } from './adapters/http/app.js';
import type { Config } from './config.js';
import type { Logger } from './core/logger.js';
import { Ingest } from './core/activities/ingest.js';
import type { Principal } from './core/auth/principal.js';
import { startReaders } from './core/activities/reader-pool.js';
import { InlineValidation } from './core/activities/validate-payload.js';
import { ShapeCheck } from './core/activities/shape-check.js';
import { createPayloadValidator } from './core/validation/index.js';
import { TokenService } from './core/auth/tokens.js';
import { QueryBank } from './core/queries/query-bank.js';
import { Registry } from './core/registry/registry.js';
import { Sessions } from './core/accounts/sessions.js';
import { loadAccounts } from './core/accounts/load-accounts.js';
import { ClientAssertions } from './core/accounts/client-assertions.js';
import { TOKEN_PATH } from './adapters/http/routes/token.js';
import { readSeedFile, SeedError } from './core/registry/seed.js';
import { openStore } from './open-store.js';
import { CapacityGuard } from './core/store/capacity-guard.js';
import { CommitGate } from './core/quotas/commit-gate.js';
import { UsageBook } from './core/quotas/usage-records.js';
import { localState } from './own-state.js';
import { graphTextReader } from './core/views/graph-text.js';
import { DocumentFiles } from './core/documents/document-files.js';
import { fetchSlots } from './core/documents/fetch-config.js';
import { FileFetcher } from './core/documents/file-fetcher.js';
import { HostPolicy } from './core/documents/host-policy.js';
import { StorageQuota } from './core/documents/storage-quota.js';
import { ChangeFeed } from './core/store/change-feed.js';
import { Sequence } from './core/catalog/sequence.js';
import { Visibility } from './core/policy/visibility.js';
import { Policies } from './core/policy/policies.js';
import { PublicationOrder } from './core/policy/publication-order.js';
import { CoveragePolicies } from './core/policy/coverage-policies.js';
import { ChangeClock } from './core/policy/change-clock.js';
import { readCaches } from './core/views/read-caches.js';
import { readCacheFollower } from './core/views/cache-follower.js';
import { SparqlService } from './adapters/sparql-endpoint/service.js';
import { sparqlEngineFor } from './adapters/sparql-endpoint/engine-for.js';
import { QueryParser } from './adapters/sparql-endpoint/parser/parser.js';
import { RdfExport } from './core/views/rdf-export.js';
import { GraphJson } from './core/views/graph-json.js';
import { DocumentsView } from './core/views/documents-view.js';
import { ConsignmentView } from './core/views/consignment-view.js';
import { Outbox } from './core/notify/outbox.js';
import { NotificationEndpoints } from './core/notify/endpoints.js';
import { SignalContributor } from './core/notify/signal-contributor.js';
import { Redelivery } from './core/notify/redelivery.js';
import { ChangeLog } from './core/changes/change-log.js';
import { RedeliveryBudget } from './core/notify/redelivery-budget.js';
import { NodeMetrics } from './adapters/ops/node-metrics.js';
import { ReceivedDeliveries } from './core/notify/received-deliveries.js';
import { signalsFollower } from './core/notify/signals-follower.js';
import { useCursorKey } from './core/util/sealed-cursors.js';

import type { DataspaceNode, NodeOptions } from './node-contract.js';
import { systemClock } from './core/ports/clock.js';
export type { DataspaceNode, NodeOptions };

/**
 * Composition root: config → store recovery → the change feed → seed → read side → write side → the
 * feed's followers, in the order they hear of each commit → app. Each collaborator is made after
 * everything it uses.
 */
export async function createNode(config: Config, logger: Logger, options: NodeOptions = {}): Promise<DataspaceNode> {
  if (!config.seedPath && config.production) {
    throw new SeedError('NODE_ENV=production refuses the bundled example seed: set DATASPACE_SEED to your seed file');
  }
  const seed = readSeedFile(config.seedPath ?? config.exampleSeedPath);
  if (!config.seedPath) logger.warn('no DATASPACE_SEED given: the bundled example seed is loaded and its demo credentials are active');

  const queries = new QueryBank();
  // A replica set's writer fences its updates on its lease's epoch (docs/replicas.md).
  const fence = options.ownState?.storeFence;
  const storeConfig = fence && config.store.sparql ? { ...config.store, sparql: { ...config.store.sparql, fence } } : config.store;
  const opened = await openStore(storeConfig, config.dataDir, config.fsync, queries, logger);
  // Every commit of the node goes through `store`, and is published on `feed` once durable (docs/architecture.md).
  const feed = new ChangeFeed(logger);
  const fed = feed.store(options.serving?.store(opened.store) ?? opened.store);
  // A follower replica reads the writer's store: it seeds nothing and runs no background writer.
  const writes = !options.serving?.follower;
  // In front of every commit, the gate: a write an organisation asked for is charged against its quotas
  // and the node's capacity (src/core/quotas/); the node's own bookkeeping passes.
  const { capabilities } = opened;
  const capacity =
    config.store.maxQuads > 0
      ? new CapacityGuard(fed, config.store.maxQuads, capabilities.capacity?.memory, capabilities.capacity?.heldQuads)
      : undefined;
  const usage = new UsageBook(fed, queries);
  await usage.load();
  const store = new CommitGate(fed, usage, config.quotas, capacity);

  // Documents' files, the JWT secret and failed-login counters: in the data dir and memory, or a replica set's.
  const own = options.ownState ?? localState(config.dataDir, config.fsync);
  const registry = new Registry(store, queries);
  await registry.load();
  if (writes) await registry.applySeed(seed);
  const { audit, users, clients, revoked } = await loadAccounts(store, queries, seed, logger, {
    secretOverlapSeconds: config.clientSecretOverlapSeconds,
    quotas: config.quotas,
    writes,
  });
  // What time it is, for what the node stamps (ChangeClock, below, counts changes, not time).
  const wallClock = options.clock ?? systemClock;
  const policies = new Policies(store, queries, wallClock, config.quotas.policyValues);
  if (writes) await policies.applySeed(seed.policies);

  // The read side. Read caches follow this process's writes: it is the store's one writer, embedded or
  // on a SPARQL server (docs/external-store.md), so what it committed is all that can change.
  const clock = new ChangeClock();
  const caches = readCaches(clock);
  // One publication sequence: activities, and deliveries numbered from it so each receiver's queue is in commit order.
  const sequence = new Sequence();
  // One catalog of consignments for writes and reads, told each write at its commit by the ingest;
  // lists page in the publication order it keeps, for the same reason. In memory, or a replica set's.
  const index = own.catalog(store, queries, sequence);
  // The policies in force, followed change by change for the same reason.
  const coverage = new CoveragePolicies(store, queries, true);
  const publicationOrder = new PublicationOrder(index, coverage);
  const visibility = new Visibility(store, queries, publicationOrder, clock);
  const graphJson = new GraphJson(store, queries, undefined, capabilities.graphText);
  const documentsView = new DocumentsView(store, queries, graphJson, config.baseUrl, own.blobs, caches.attachments);
  const consignmentView = new ConsignmentView(store, queries, graphJson, documentsView, caches.views, clock);
  const sparqlEngine = sparqlEngineFor(
    opened.store,
    capabilities.engineCopies,
    config.dataDir,
    logger,
    (principal) => visibility.visibleGraphs(principal),
    config.sparql,
  );
  const sparql = new SparqlService({
    engine: sparqlEngine,
    limits: config.sparql,
    parser: new QueryParser(logger, undefined, { maxWaitingPerOrg: config.sparql.maxWaitingPerOrg, maxWaitMs: config.sparql.timeoutMs }),
  });

  // The write side.
  const secret = config.jwtSecret ?? (await own.jwtSecret());
  const tokens = new TokenService(secret, config.tokenLifetimeSeconds, config.nodeName, config.sessionMaxSeconds);
  // Cursors are sealed under a key of the same secret, so they stay valid across restarts and replicas.
  useCursorKey(secret);
  const sessions = new Sessions({ tokens, users, clients, revoked, registry, audit });
  const allocateSeq = (): number => sequence.next();
  const outbox = new Outbox(store, queries);
  // What each receiver was sent: its list pages walk a ledger by receiver (core/ports/receiver-ledger.ts).
  const ledger = own.ledger(store, queries);
  const received = new ReceivedDeliveries({ store, queries, ledger, globalIdOf: (c) => index.globalIdOf(c) });
  const endpoints = new NotificationEndpoints(store, queries, registry, new HostPolicy(config.notify.allow));
  await endpoints.load();
  // The change feed's journal: data changes in their own commits, numbered from the same sequence.
  const changes = new ChangeLog({ store, queries, logger, coverage, allocateSeq, source: own.changes(), clock: wallClock });
  const signals = new SignalContributor({ store, queries, registry, outbox, endpoints, baseUrl: config.baseUrl, allocateSeq });
  // Only new activities meet the documents' storage quota: deliveries, policies and the seed still work on a full node.
  const quota = new StorageQuota(store, queries, config.fetch.quotaBytes);
  await quota.load();
  const files = new DocumentFiles(new FileFetcher(config.fetch), own.blobs, quota, fetchSlots(config.fetch));
  // Spawned once the app answers (below): their start-up no longer competes with the store's recovery.
  const reader = options.reader ?? startReaders(config, logger, true);
  // The reader threads compile the shapes themselves: this thread needs them only when there are none
  // (compiling them here held the event loop at start for nothing).
  const inlineValidator = reader ? undefined : (options.validator ?? (await createPayloadValidator()));
  // A location operator's match is refused like a read when no policy lets it read.
  const canRead = async (principal: Principal, consignment: string): Promise<boolean> =>
    (await visibility.verify(principal, [consignment])).length > 0;
  const ingest = new Ingest({
    store,
    queries,
    index,
    files,
    canRead,
    nodeName: config.nodeName,
    reader,
    payloadCheck: inlineValidator && new ShapeCheck(inlineValidator),
    contributors: [signals, changes.contributor],
    sequence,
    activityIds: own.activityIds(store, queries, config.idempotency),
    clock: wallClock,
  });
  // After the sequence continues from the store, before any write is taken.
  if (writes) await ingest.init().then(() => changes.reconcile());
  const metrics = new NodeMetrics();
  // Signals go out from this process, or from every replica of a set (own.deliveries).
  const deliverer = own.deliveries({
    store,
    outbox,
    registry,
    endpoints,
    config: config.notify,
    logger,
    nodeName: config.nodeName,
    allocateSeq,
    onRecorded: (outcome) => metrics.deliveryRecorded(outcome),
  });
  metrics.track({
    store,
    maxQuads: config.store.maxQuads,
    backlog: () => deliverer.waiting(),
    embedded: capabilities.metrics,
  });

  // The followers of the change feed, in the order each commit reaches them: the SPARQL engine's copies
  // first (a query asked after the answer to a write sees it), then what reads keep in memory, then
  // the world outside (signals), then housekeeping. The seed's commits above came before any of them:
  // then no engine thread runs and no cache holds anything.
  feed.follow('sparql engine', ({ change }) => sparqlEngine.follow(change));
  // The engine's copies are saved as images at the point of each log rotation in the commit order.
  capabilities.snapshots?.onRotation((generation, kind) =>
    feed.afterPublished('sparql engine image', () => sparqlEngine.imageAt?.(generation, kind === 'snapshot')),
  );
  feed.follow('read caches', readCacheFollower(clock, graphJson));
  feed.follow('coverage policies', ({ notes }) => coverage.follow(notes));
  feed.follow('signals', signalsFollower(signals, ledger, deliverer));
  feed.follow('change journal', (committed) => changes.follow(committed));
  feed.follow('snapshots', () => capabilities.snapshots?.committed());

  const redelivery = new Redelivery({
    store,
    queries,
    outbox,
    budget: new RedeliveryBudget(config.notify.redeliver ?? { burst: 20, perHour: 120 }),
    queued: (deliveries) => deliverer.queued(deliveries),
  });
  const app = createApp({
    redelivery,
    changes,
    store,
    queries,
    registry,
    users,
    clients,
    assertions: new ClientAssertions(config.baseUrl, `${config.baseUrl}${TOKEN_PATH}`, config.assertionReplayPerOrg),
    sessions,
    ingest,
    visibility,
    consignmentView,
    documentsView,
    validation: reader ?? new InlineValidation(inlineValidator!),
    logger,
    outbox,
    received,
    endpoints,
    signalEndpointChanged: (organisation) => deliverer.endpointChanged(organisation),
    policies,
    sparql,
    sparqlLimits: config.sparql,
    rdfExport: new RdfExport(visibility, graphTextReader(store, queries, capabilities.graphText)),
    baseUrl: config.baseUrl,
    publicOrigins: config.publicOrigins,
    bodyLimitBytes: config.bodyLimitBytes,
    bodyTimeoutMs: config.server.bodyTimeoutMs,
    secureCookie: config.baseUrl.startsWith('https:'),
    pageLimitDefault: config.pageLimitDefault,
    pageLimitMax: config.pageLimitMax,
    ops: { logger, metrics, metricsToken: config.ops.metricsToken, ready: () => reader?.ready ?? true },
    login: config.login,
    loginCounters: own.loginCounters,
    trustedProxies: config.trustedProxies,
  });
  const parts = { feed, clock, graphJson, coverage, registry, users, clients, revoked, endpoints };
  const served = options.serving ? await options.serving.serve(app, parts) : app;
  // Every replica of a set sends signals; only the writer queues them.
  deliverer.start();
  if (writes) {
    changes.startLoading();
    ledger.startLoading().catch((error: unknown) => logger.error('could not read the deliveries', { error: (error as Error).message }));
  }
  // On the turn after the caller has handed the app to the server (main.ts), so the first answers do not wait.
  setImmediate(() => reader?.start());
  const close = async () => {
    await users.seeded().catch(() => undefined);
    if (writes) await reader?.close();
    await deliverer.stop();
    await changes.settled();
    await options.serving?.close();
    metrics.close();
    await sparql.close();
    await sparqlEngine.close();
    await opened.close();
    await own.close();
  };
  return { app: served, store, capabilities, embedded: opened.embedded, registry, users, ingest, settled: () => changes.settled(), close };
}
