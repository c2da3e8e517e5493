import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Express } from 'express';
import { createApp } from './app.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { Ingest } from './activities/ingest.js';
import { ShapeCheck } from './activities/shape-check.js';
import { createPayloadValidator, type PayloadValidator } from './validation/index.js';
import { loadJwtSecret } from './auth/jwt-secret.js';
import { TokenService } from './auth/tokens.js';
import { QueryBank } from './queries/query-bank.js';
import { Registry } from './registry/registry.js';
import { readSeedFile, SeedError } from './registry/seed.js';
import { OxigraphStore } from './store/oxigraph-store.js';
import { replayLog, WriteAheadLog } from './store/write-ahead-log.js';
import { Visibility } from './policy/visibility.js';
import { GraphJson } from './views/graph-json.js';
import { DocumentsView } from './views/documents-view.js';
import { ConsignmentView } from './views/consignment-view.js';
import { Outbox } from './notify/outbox.js';
import { NotificationEndpoints } from './notify/endpoints.js';
import { SignalContributor } from './notify/signal-contributor.js';
import { Deliverer } from './notify/deliverer.js';

export interface DataspaceNode {
  app: Express;
  store: OxigraphStore;
  registry: Registry;
  ingest: Ingest;
  close(): Promise<void>;
}

export interface NodeOptions {
  /** A compiled validator to reuse (compiling the shapes takes a moment; tests share one). */
  validator?: PayloadValidator;
}

/** Recovers the embedded store from the data dir's log. */
function openEmbeddedStore(config: Config, logger: Logger): OxigraphStore {
  mkdirSync(config.dataDir, { recursive: true });
  const logPath = join(config.dataDir, 'changes.log');
  const started = Date.now();
  const { changes, droppedBytes } = replayLog(logPath);
  if (droppedBytes > 0) logger.warn('dropped a torn or corrupt tail of the change log', { droppedBytes, logPath });
  const store = new OxigraphStore(new WriteAheadLog(logPath, config.fsync));
  for (const change of changes) store.apply(change);
  logger.info('store recovered', { changes: changes.length, quads: store.store.size, ms: Date.now() - started });
  return store;
}

/** Composition root: config → store recovery → seed → collaborators → app. */
export async function createNode(config: Config, logger: Logger, options: NodeOptions = {}): Promise<DataspaceNode> {
  if (!config.seedPath && config.production) {
    throw new SeedError('NODE_ENV=production refuses the bundled example seed: set DATASPACE_SEED to your seed file');
  }
  const seed = readSeedFile(config.seedPath ?? config.exampleSeedPath);
  if (!config.seedPath) logger.warn('no DATASPACE_SEED given: the bundled example seed is loaded and its demo credentials are active');

  const store = openEmbeddedStore(config, logger);
  const queries = new QueryBank();
  const registry = new Registry(store, queries);
  await registry.load();
  await registry.applySeed(seed);

  const tokens = new TokenService(loadJwtSecret(config.dataDir, config.jwtSecret), config.tokenLifetimeSeconds, config.nodeName);
  const validator = options.validator ?? await createPayloadValidator();
  const outbox = new Outbox(store, queries);
  const endpoints = new NotificationEndpoints(store, queries, registry);
  await endpoints.load();
  // Deliveries are numbered from the ingest sequence, so each receiver's queue is in commit order.
  const allocateSeq = (): number => ingest.allocateSeq();
  const signals = new SignalContributor({ store, queries, registry, outbox, endpoints, baseUrl: config.baseUrl, allocateSeq });
  const ingest = new Ingest({ store, queries, nodeName: config.nodeName, payloadCheck: new ShapeCheck(validator), contributors: [signals] });
  await ingest.init();
  const deliverer = new Deliverer({ store, outbox, registry, endpoints, config: config.notify, logger, nodeName: config.nodeName, allocateSeq });
  ingest.onAccepted((_accepted, entry) => deliverer.queued(entry.id));
  const visibility = new Visibility(store, queries);
  const graphJson = new GraphJson(store, queries);
  ingest.onAccepted((accepted) => {
    graphJson.invalidate(accepted.graph);
    // A carrier booking may rewrite the consignment's own graph too.
    if (accepted.kind === 'event') graphJson.invalidate(accepted.consignment.stateGraph);
  });
  const documentsView = new DocumentsView(store, queries, graphJson, config.baseUrl);
  const consignmentView = new ConsignmentView(store, queries, visibility, graphJson, documentsView);

  const app = createApp({
    store, queries, registry, tokens, ingest, visibility, consignmentView, documentsView, validator, logger,
    outbox, endpoints, signalEndpointChanged: (organisation) => deliverer.endpointChanged(organisation),
    baseUrl: config.baseUrl,
    bodyLimitBytes: config.bodyLimitBytes,
    secureCookie: config.baseUrl.startsWith('https:'),
    pageLimitDefault: config.pageLimitDefault,
    pageLimitMax: config.pageLimitMax,
  });
  deliverer.start();
  const close = async () => {
    await deliverer.stop();
    await store.close();
  };
  return { app, store, registry, ingest, close };
}
