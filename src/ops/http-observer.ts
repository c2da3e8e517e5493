import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import { pino, type Logger as PinoLogger } from 'pino';
import type { Logger } from '../logger.js';
import { HttpError } from '../errors.js';
import { audit } from './audit.js';
import type { NodeMetrics } from './node-metrics.js';
import { requestId } from './request-id.js';
import { routePattern } from './route-pattern.js';

const INBOX = '/supply-chain/data-space/inbox';
const SPARQL = '/supply-chain/data-space/sparql';
const ERROR = Symbol('ops.error');

type Observed = Response & { [ERROR]?: unknown };

/**
 * Mounted first: gives every request an id (X-Request-Id on every answer), writes one access-log line
 * when the answer is finished (method, route pattern, status, ms, organisation, request id; no
 * headers, query string or body, so no token, cookie or payload), and counts it in the metrics.
 */
export function observeRequests(app: Express, logger: Logger, metrics: NodeMetrics): RequestHandler {
  const access = pinoHttp({
    // pino-http types its logger with custom levels of type string; ours has none (never).
    logger: (logger.pino ?? pino({ level: 'silent' })) as unknown as PinoLogger,
    genReqId: requestId,
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'reqId' },
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
    // Every line carries only these fields; a 5xx is logged at error without the error object (the error handler logged it).
    customSuccessObject: (req, res, fields) => line(app, req as Request, res as Response, fields),
    customErrorObject: (req, res, _error, fields) => line(app, req as Request, res as Response, fields),
    // 503 is the node saying "not now" (starting, busy, query time limit), not a fault of the node.
    customLogLevel: (_req, res) => (res.statusCode >= 500 && res.statusCode !== 503 ? 'error' : res.statusCode === 503 ? 'warn' : 'info'),
    // Probes come every few seconds from an orchestrator; they are counted in the metrics, not logged.
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route = routePattern(app, req);
      const status = res.statusCode;
      const error = (res as Observed)[ERROR];
      metrics.httpDuration.observe({ method: req.method, route, status: String(status) }, Number(process.hrtime.bigint() - started) / 1e9);
      if (route === INBOX && req.method === 'POST') {
        metrics.inboxAnswered((req.body as { type?: unknown } | undefined)?.type, status);
        const results = error instanceof HttpError && status === 422 ? error.properties?.results : undefined;
        if (Array.isArray(results)) metrics.validationFailed(results);
      }
      if (route === SPARQL && (req.method === 'GET' || req.method === 'POST')) {
        metrics.sparqlAnswered(status, error instanceof HttpError && error.name === 'QueryTimeout');
      }
      audit(logger, req, res, route, String(req.id), error);
    });
    access(req, res, next);
  };
}

// The request id is already bound to the line by pino-http (quietReqLogger).
function line(app: Express, req: Request, res: Response, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    method: req.method, route: routePattern(app, req), status: res.statusCode,
    ms: fields.responseTime, org: req.principal?.org.id,
  };
}

/** Mounted just before the error handler: remembers the error for the finished-request observers. */
export function rememberErrors(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  (res as Observed)[ERROR] = error;
  next(error);
}
