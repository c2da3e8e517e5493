import type { Express, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/**
 * helmet's defaults (nosniff, frame and referrer rules, a closed CSP: the node serves data, never
 * pages) plus `Cache-Control: no-store`, because API answers depend on who asks. A non-JSON answer
 * that carries an ETag and no Cache-Control of its own (RDF exports, files) gets `private, no-cache`:
 * the caller's own cache may keep it and revalidate with If-None-Match, shared caches may not.
 *
 * The Cache-Control rule is the app's response prototype's writeHead (express's `app.response`, made to
 * be extended), set once: a writeHead function put on each response kept every response alive in V8
 * until the next scavenge, which then copied them all (figures:
 * bench/results/2026-12-08-comment-figures.md).
 */
export function securityHeaders(app: Express): RequestHandler {
  const writeHead = app.response.writeHead;
  app.response.writeHead = function (this: Response, ...args: unknown[]) {
    if (!this.hasHeader('cache-control')) {
      // express puts a weak ETag on every body it sends; only non-JSON answers (RDF exports, files) may be kept.
      const json = /^application\/json\b/i.test(String(this.getHeader('content-type') ?? ''));
      this.setHeader('cache-control', !json && this.hasHeader('etag') ? 'private, no-cache' : 'no-store');
    }
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as Response['writeHead'];
  return helmet();
}
