import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import cookieParser from 'cookie-parser';
import type { Registry } from '../../core/registry/registry.js';
import type { Users } from '../../core/accounts/users.js';
import type { Sessions } from '../../core/accounts/sessions.js';
import type { Clients } from '../../core/accounts/clients.js';
import type { ClientAssertions } from '../../core/accounts/client-assertions.js';
import { TOKEN_FORM, TOKEN_PATH, tokenRoutes } from './routes/token.js';
import { oauthMetadataRoutes } from './routes/oauth-metadata.js';
import { methodNotAllowed } from './method-not-allowed.js';
import { API_OPERATIONS } from './openapi/operations.js';
import { organisationClientRoutes } from './routes/organisation-clients.js';
import type { Ingest } from '../../core/activities/ingest.js';
import type { QuadStore } from '../../core/ports/quad-store.js';
import type { QueryBank } from '../../core/queries/query-bank.js';
import type { Visibility } from '../../core/policy/visibility.js';
import type { ConsignmentView } from '../../core/views/consignment-view.js';
import type { DocumentsView } from '../../core/views/documents-view.js';
import type { Logger } from '../../core/logger.js';
import type { LoginConfig } from '../../core/auth/login-config.js';
import type { CounterFactory } from '../../core/auth/login-throttle.js';
import { authenticate } from './authenticate.js';
import { bodyWithin } from './body-deadline.js';
import { cors } from './cors.js';
import { OwnOrigins } from './own-origins.js';
import { errorHandler } from './error-handler.js';
import { securityHeaders } from './security-headers.js';
import { refuseUnsafeJson } from './json-safety.js';
import { NotFound, UnsupportedMediaType } from '../../core/errors.js';
import { loginBodyParser, loginRoutes } from './routes/login.js';
import { sessionRoutes } from './routes/session.js';
import { inboxRoutes } from './routes/inbox.js';
import { organisationUserRoutes } from './routes/organisation-users.js';
import { validateRoutes } from './routes/validate.js';
import type { PayloadValidation } from '../../core/activities/validate-payload.js';
import { activityLogRoutes } from './routes/activity-logs.js';
import { consignmentRoutes } from './routes/consignments.js';
import { documentRoutes } from './routes/documents.js';
import { notificationRoutes } from './routes/notifications.js';
import { deliveryRoutes } from './routes/deliveries.js';
import type { Outbox } from '../../core/notify/outbox.js';
import type { NotificationEndpoints } from '../../core/notify/endpoints.js';
import type { Policies } from '../../core/policy/policies.js';
import { policyRoutes } from './routes/policies.js';
import { contextRoutes } from './routes/contexts.js';
import { sparqlRoutes } from './routes/sparql.js';
import type { SparqlService } from '../sparql-endpoint/service.js';
import type { SparqlConfig } from '../sparql-endpoint/config.js';
import type { RdfExport } from '../../core/views/rdf-export.js';
import { browserRoutes } from './pages/browser-routes.js';
import type { ReceivedDeliveries } from '../../core/notify/received-deliveries.js';
import type { Redelivery } from '../../core/notify/redelivery.js';
import { signalRoutes } from './routes/signals.js';
import type { ChangeLog } from '../../core/changes/change-log.js';
import { changeRoutes } from './routes/changes.js';
import { opsRoutes, type OpsDeps } from '../ops/ops-routes.js';
import { rememberErrors } from '../ops/http-observer.js';

export interface AppDeps {
  store: QuadStore;
  queries: QueryBank;
  registry: Registry;
  users: Users;
  sessions: Sessions;
  clients: Clients;
  /** Checks private_key_jwt client assertions (aud = the issuer or the token endpoint), with their replay cache. */
  assertions: ClientAssertions;
  ingest: Ingest;
  visibility: Visibility;
  consignmentView: ConsignmentView;
  documentsView: DocumentsView;
  /** Where /validate does its work: the reader threads, or the event loop when there are none. */
  validation: PayloadValidation;
  logger: Logger;
  outbox: Outbox;
  /** The signals each organisation was sent (GET …/signals, the console's deliveries page). */
  received: ReceivedDeliveries;
  endpoints: NotificationEndpoints;
  /** Wakes the deliverer after an organisation changed its notification endpoint. */
  signalEndpointChanged: (organisation: string) => void;
  policies: Policies;
  sparql: SparqlService;
  sparqlLimits: SparqlConfig;
  rdfExport: RdfExport;
  baseUrl: string;
  /** Origins a proxy serves the node at (DATASPACE_PUBLIC_ORIGINS); see OwnOrigins. */
  publicOrigins?: string[];
  bodyLimitBytes: number;
  /** An authenticated request's body must arrive within this (DATASPACE_HTTP_BODY_TIMEOUT_MS). */
  bodyTimeoutMs: number;
  secureCookie: boolean;
  pageLimitDefault: number;
  pageLimitMax: number;
  /** Redelivery of signals a receiver asks for (GET/POST …/signals); the signals routes are absent without it. */
  redelivery?: Redelivery;
  /** The change feed (GET …/changes); the route is absent without it. */
  changes?: ChangeLog;
  /** Probes, /metrics, access log and request ids (docs/operations.md). */
  ops?: OpsDeps;
  /** Login throttling and password-check capacity (DATASPACE_LOGIN_*). */
  login?: LoginConfig;
  /** Where failed logins are counted (a replica set's are in PostgreSQL); this process's memory when absent. */
  loginCounters?: CounterFactory;
  /** Express's `trust proxy`: which proxies' X-Forwarded-For names the client (DATASPACE_TRUSTED_PROXIES). */
  trustedProxies?: string | false;
}

const JSON_TYPES = ['application/json', 'application/ld+json', 'application/activity+json', 'application/*+json'];

/**
 * Bodies of POST/PUT must be JSON; anything else is refused before parsing. A request without a body
 * (no Content-Length, no Transfer-Encoding: `curl -X POST …/logout`) has no type to check.
 */
function requireJson(req: Request, _res: Response, next: NextFunction): void {
  const posted = req.method === 'POST' || req.method === 'PUT';
  const body = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
  if (posted && body && !req.is(JSON_TYPES)) {
    throw new UnsupportedMediaType('The body must be JSON (Content-Type: application/json)');
  }
  next();
}

/** The HTTP application without listen(), so tests can build it with their own collaborators. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustedProxies ?? false);
  if (deps.ops) app.use(opsRoutes(app, deps.ops));
  const origins = new OwnOrigins(deps.baseUrl, deps.publicOrigins);
  app.use(securityHeaders(app));
  app.use(cors(origins));
  app.use(cookieParser());
  // /openapi.json, /docs, the SPARQL page (GET with Accept: text/html) and the console (src/adapters/http/pages/).
  const authenticated = authenticate(deps.sessions);
  app.use(browserRoutes({ ...deps, origins, authenticate: authenticated, received: deps.received }));
  // The SPARQL protocol sends queries as form or sparql-query bodies: mounted before the JSON-only guard.
  app.use(
    sparqlRoutes({
      authenticate: authenticated,
      sparql: deps.sparql,
      limits: deps.sparqlLimits,
      baseUrl: deps.baseUrl,
      queries: deps.queries,
    }),
  );
  // OAuth clients send form-encoded token requests: mounted before the JSON-only guard. The body is
  // read here first, within the body time-out (the route's own parser then finds it read): anonymous
  // slow bodies held connections for the whole-request time-out (120 s) and filled the connection cap.
  app.post(TOKEN_PATH, bodyWithin(express.urlencoded(TOKEN_FORM), deps.bodyTimeoutMs));
  app.use(tokenRoutes({ clients: deps.clients, sessions: deps.sessions, assertions: deps.assertions }));
  app.use(oauthMetadataRoutes(deps.baseUrl));
  // PUT or DELETE on a consignment is 405 with Allow, before the body or the credentials are looked at.
  app.use(methodNotAllowed(API_OPERATIONS));
  app.use(requireJson);
  // Login reads its own small body (8 KiB); every other body is read only after the credentials in the
  // request's head were checked: a request without them is answered 401 with its body unread (the
  // error handler then closes the connection), so no stranger's body is read, inflated or parsed.
  app.use('/authentication/login', bodyWithin(loginBodyParser(JSON_TYPES), deps.bodyTimeoutMs), refuseUnsafeJson);
  app.use(
    loginRoutes({
      users: deps.users,
      sessions: deps.sessions,
      secureCookie: deps.secureCookie,
      config: deps.login,
      counters: deps.loginCounters,
    }),
  );
  // The bundled JSON-LD contexts, public like the vocabularies they stand for.
  app.use(contextRoutes());
  // Logout and refresh read no body; logout also answers a caller whose token already ended.
  app.use(sessionRoutes({ authenticate: authenticated, sessions: deps.sessions, secureCookie: deps.secureCookie }));
  app.use(authenticated);
  app.use(bodyWithin(express.json({ limit: deps.bodyLimitBytes, type: JSON_TYPES, strict: false }), deps.bodyTimeoutMs));
  app.use(refuseUnsafeJson);

  app.use(inboxRoutes(deps.ingest, deps.baseUrl));
  app.use(validateRoutes(deps.validation));
  app.use(activityLogRoutes(deps.store, deps.queries));
  app.use(
    consignmentRoutes({
      visibility: deps.visibility,
      view: deps.consignmentView,
      documents: deps.documentsView,
      rdfExport: deps.rdfExport,
      baseUrl: deps.baseUrl,
      pageLimitDefault: deps.pageLimitDefault,
      pageLimitMax: deps.pageLimitMax,
    }),
  );
  app.use(
    documentRoutes({
      store: deps.store,
      queries: deps.queries,
      visibility: deps.visibility,
      documents: deps.documentsView,
      baseUrl: deps.baseUrl,
      pageLimitDefault: deps.pageLimitDefault,
      pageLimitMax: deps.pageLimitMax,
    }),
  );
  app.use(notificationRoutes({ endpoints: deps.endpoints, changed: deps.signalEndpointChanged }));
  app.use(deliveryRoutes({ visibility: deps.visibility, outbox: deps.outbox, registry: deps.registry }));
  if (deps.redelivery) {
    app.use(
      signalRoutes({
        received: deps.received,
        redelivery: deps.redelivery,
        baseUrl: deps.baseUrl,
        pageLimitDefault: deps.pageLimitDefault,
        pageLimitMax: deps.pageLimitMax,
      }),
    );
  }
  if (deps.changes) {
    app.use(
      changeRoutes({
        changes: deps.changes,
        baseUrl: deps.baseUrl,
        pageLimitDefault: deps.pageLimitDefault,
        pageLimitMax: deps.pageLimitMax,
      }),
    );
  }
  app.use(policyRoutes({ policies: deps.policies, baseUrl: deps.baseUrl }));
  app.use(organisationUserRoutes({ users: deps.users, baseUrl: deps.baseUrl }));
  app.use(organisationClientRoutes({ clients: deps.clients, baseUrl: deps.baseUrl }));
  app.use((req: Request) => {
    throw new NotFound(`No route ${req.method} ${req.path}`);
  });
  if (deps.ops) app.use(rememberErrors);
  app.use(errorHandler(deps.logger));
  return app;
}
