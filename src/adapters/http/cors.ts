import type { NextFunction, Request, Response } from 'express';
import corsPackage from 'cors';
import type { OwnOrigins } from './own-origins.js';

/**
 * The CORS headers (the `cors` package): any origin may read, as `*`, and credentials are never
 * allowed, so a browser sends no cookies along and refuses to hand over a credentialed answer. A
 * preflight is answered 204 here and goes no further.
 */
const crossOrigin = corsPackage({
  origin: '*',
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
  allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'If-None-Match'],
  exposedHeaders: ['ETag', 'Link', 'Location', 'Content-Type', 'Retry-After', 'Vary'],
  maxAge: 600,
  optionsSuccessStatus: 204,
});

/**
 * CORS for browser clients on other origins (YASGUI, Comunica in a page) that authenticate with a
 * Bearer token. The cookie header of a cross-origin request is dropped, so only the token it carries
 * in Authorization can authenticate it (no ambient authority for pages of other origins, whatever
 * the browser does). Browsers send Origin on a same-origin POST too: the node's own pages keep their
 * cookie at whatever address they were opened (OwnOrigins), and get no CORS headers.
 */
export function cors(origins: OwnOrigins) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (origins.sameOrigin(req)) {
      next();
      return;
    }
    delete req.headers.cookie;
    // The answer depends on Origin (same-origin requests get no CORS headers): caches must key on it.
    res.vary('Origin');
    crossOrigin(req, res, next);
  };
}
