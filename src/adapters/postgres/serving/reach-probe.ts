import type { NextFunction, Request, Response } from 'express';
import type { PostgresReach } from '../postgres-reach.js';

/**
 * `GET /readyz` answers 503 while PostgreSQL gives this replica no answer (postgres-reach.ts), before
 * the node's own probe: a replica cut off from it serves nothing that needs it, and the load balancer
 * sends its requests to one that reaches it. As the node's probe, no credentials and only a word.
 */
export function reachProbe(reach: PostgresReach | undefined) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (reach && req.method === 'GET' && req.path === '/readyz' && !reach.reachable()) {
      res.status(503).set('cache-control', 'no-store').type('text/plain').send('cut off');
      return;
    }
    next();
  };
}
