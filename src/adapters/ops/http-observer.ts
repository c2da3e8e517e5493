import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from '../../core/logger.js';
import { HttpError } from '../../core/errors.js';
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
 * when the answer is done (method, route pattern, status, ms, organisation, request id; no headers,
 * query string or body, so no token, cookie or payload), and counts it in the metrics. The line is
 * written here rather than through pino-http, whose child logger for every request costs a cold
 * view's CPU a share worth saving (figures: bench/results/2026-12-08-comment-figures.md).
 */
export function observeRequests(app: Express, logger: Logger, metrics: NodeMetrics): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const id = requestId(req, res);
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
      audit(logger, req, res, route, id, error);
    });
    // 'close' comes after 'finish', or alone when the client went away before the answer was sent.
    // Probes come every few seconds from an orchestrator; they are counted in the metrics, not logged.
    if (req.url !== '/healthz' && req.url !== '/readyz') res.once('close', () => accessLine(app, logger, req, res, id, started));
    next();
  };
}

function accessLine(app: Express, logger: Logger, req: Request, res: Response, reqId: string, started: bigint): void {
  const status = res.statusCode;
  const fields = {
    reqId,
    method: req.method,
    route: routePattern(app, req),
    status,
    ms: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
    org: req.principal?.org.id,
  };
  // 503 is the node saying "not now" (starting, busy, query time limit), not a fault of the node.
  if (status >= 500 && status !== 503) logger.error('request', fields);
  else if (status === 503) logger.warn('request', fields);
  else logger.info('request', fields);
}

/** Mounted just before the error handler: remembers the error for the finished-request observers. */
export function rememberErrors(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  (res as Observed)[ERROR] = error;
  next(error);
}
