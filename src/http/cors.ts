import type { NextFunction, Request, Response } from 'express';
import type { OwnOrigins } from './own-origins.js';

/**
 * CORS for browser clients on other origins (YASGUI, Comunica in a page) that authenticate with a
 * Bearer token. Any origin may read, as `*`, and credentials are never allowed: a browser then sends
 * no cookies along and refuses to hand over a credentialed answer. The cookie header of a cross-origin
 * request is dropped too, so only the token it carries in Authorization can authenticate it (no
 * ambient authority for pages of other origins, whatever the browser does). Browsers send Origin
 * on a same-origin POST too: the node's own pages keep their cookie at whatever address they were
 * opened (OwnOrigins).
 */
export function cors(origins: OwnOrigins) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (origins.sameOrigin(req)) {
      next();
      return;
    }
    delete req.headers.cookie;
    res.set({
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'ETag, Link, Location, Content-Type, Retry-After, Vary',
    });
    res.vary('Origin');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.set({
        'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE',
        'access-control-allow-headers': 'Authorization, Content-Type, Accept, If-None-Match',
        'access-control-max-age': '600',
      });
      res.status(204).end();
      return;
    }
    next();
  };
}
