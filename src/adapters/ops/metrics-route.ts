import { createHash, timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import { NotFound, Unauthorized } from '../../core/errors.js';
import type { NodeMetrics } from './node-metrics.js';
import { error, type ApiOperation } from '../http/api-operation.js';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * GET /metrics (Prometheus text format) for a scraper holding DATASPACE_METRICS_TOKEN as a Bearer
 * token. Without the variable the endpoint is off: metrics name routes and counts refusals, which is
 * not for anonymous callers, and a user's access token is not the right credential for a scraper.
 */
export function metricsRoutes(metrics: NodeMetrics, token: string | undefined): Router {
  const router = Router();
  const expected = token === undefined ? undefined : digest(token);
  router.get('/metrics', async (req, res) => {
    if (!expected) throw new NotFound('Metrics are off: set DATASPACE_METRICS_TOKEN to turn them on');
    const sent = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    // Compared as digests: equal lengths, and no timing hint about the token's prefix.
    if (sent === undefined || !timingSafeEqual(digest(sent), expected)) {
      throw new Unauthorized('GET /metrics needs Authorization: Bearer <DATASPACE_METRICS_TOKEN>');
    }
    res
      .set('cache-control', 'no-store')
      .type(metrics.contentType)
      .send(await metrics.text());
  });
  return router;
}

export const metricsOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    tag: 'Operations',
    authenticated: false,
    summary: "Prometheus metrics, for a scraper holding DATASPACE_METRICS_TOKEN as a Bearer token (not a user's access token)",
    responses: {
      200: { description: 'The Prometheus text format', content: { 'text/plain': { type: 'string' } } },
      401: error('Missing or wrong metrics token'),
      404: error('Metrics are off: DATASPACE_METRICS_TOKEN is not set'),
    },
  },
];
