import { Router } from 'express';
import type { ApiOperation } from '../http/api-operation.js';

/**
 * GET /healthz: the process answers. GET /readyz: the node can serve (store recovered, payload reader
 * threads up, SPARQL engine accepting queries); 503 until then. No credentials, and nothing in the
 * answer but the word, so a probe learns no more than an anonymous caller may.
 */
export function probeRoutes(ready: () => boolean): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.set('cache-control', 'no-store').type('text/plain').send('ok');
  });
  router.get('/readyz', (_req, res) => {
    const ok = ready();
    res
      .status(ok ? 200 : 503)
      .set('cache-control', 'no-store')
      .type('text/plain')
      .send(ok ? 'ready' : 'starting');
  });
  return router;
}

const TEXT = (description: string) => ({ description, content: { 'text/plain': { type: 'string' } } });

export const probeOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'healthz',
    tag: 'Operations',
    authenticated: false,
    summary: 'Liveness: the process answers',
    responses: { 200: TEXT('`ok`') },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readyz',
    tag: 'Operations',
    authenticated: false,
    summary: 'Readiness: store recovered, reader threads and SPARQL engine up',
    responses: { 200: TEXT('`ready`'), 503: TEXT('`starting`') },
  },
];
