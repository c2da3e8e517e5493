import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/**
 * helmet's defaults (nosniff, frame and referrer rules, a closed CSP: the node serves data, never
 * pages) plus `Cache-Control: no-store`, because API answers depend on who asks. A non-JSON answer
 * that carries an ETag and no Cache-Control of its own (RDF exports, files) gets `private, no-cache`:
 * the caller's own cache may keep it and revalidate with If-None-Match, shared caches may not.
 */
export function securityHeaders(): RequestHandler[] {
  const cacheControl = (_req: Request, res: Response, next: NextFunction): void => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      if (!res.hasHeader('cache-control')) {
        // express puts a weak ETag on every body it sends; only non-JSON answers (RDF exports, files) may be kept.
        const json = /^application\/json\b/i.test(String(res.getHeader('content-type') ?? ''));
        res.setHeader('cache-control', !json && res.hasHeader('etag') ? 'private, no-cache' : 'no-store');
      }
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as Response['writeHead'];
    next();
  };
  return [helmet(), cacheControl];
}
