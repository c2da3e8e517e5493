import { Router, type Express } from 'express';
import type { Logger } from '../../core/logger.js';
import { observeRequests } from './http-observer.js';
import type { NodeMetrics } from './node-metrics.js';
import { metricsRoutes } from './metrics-route.js';
import { probeRoutes } from './probes.js';

/** What the operations endpoints and the request observer need from the node. */
export interface OpsDeps {
  logger: Logger;
  metrics: NodeMetrics;
  /** DATASPACE_METRICS_TOKEN; undefined turns /metrics off. */
  metricsToken: string | undefined;
  /** True once the node can serve: the readiness probe's answer. */
  ready: () => boolean;
}

/** Mounted first in the app: request ids, access log, metrics of every request, probes and /metrics. */
export function opsRoutes(app: Express, deps: OpsDeps): Router {
  const router = Router();
  router.use(observeRequests(app, deps.logger, deps.metrics));
  router.use(probeRoutes(deps.ready));
  router.use(metricsRoutes(deps.metrics, deps.metricsToken));
  return router;
}
