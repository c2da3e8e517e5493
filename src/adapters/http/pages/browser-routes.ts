import { Router, type RequestHandler } from 'express';
import type { ConsoleDeps } from './console/console-routes.js';
import { consoleRoutes } from './console/console-routes.js';
import { sparqlPageRoutes } from './sparql-page-routes.js';
import { referenceRoutes } from './reference-routes.js';
import { openApiDocument } from '../openapi/document.js';
import { API_OPERATIONS } from '../openapi/operations.js';
import type { QueryBank } from '../../../core/queries/query-bank.js';
import { publicDir, staticFiles } from './assets.js';
import { projectVersion } from './project-version.js';
import { frontDoorRoutes } from './front-door.js';

export interface BrowserRouteDeps extends Omit<ConsoleDeps, 'authenticate'> {
  authenticate: RequestHandler;
  queries: QueryBank;
}

/**
 * What a browser gets besides the API: the front door (/), the OpenAPI document and its reference page, the SPARQL page
 * (on the endpoint's own GET, for text/html only) and the participant console. Mounted before the API's
 * JSON-only guard, since the console's forms are form-encoded.
 */
export function browserRoutes(deps: BrowserRouteDeps): Router {
  const router = Router();
  router.use('/assets', staticFiles(publicDir));
  router.use(frontDoorRoutes(deps.baseUrl));
  // Browsers ask every site for it; without one each page load logged a 401 or 404 JSON answer.
  router.get('/favicon.ico', (_req, res) => {
    res.set('cache-control', 'public, max-age=86400').type('image/x-icon').sendFile('favicon.ico', { root: publicDir });
  });
  router.use(
    referenceRoutes(() =>
      openApiDocument(API_OPERATIONS, {
        baseUrl: deps.baseUrl,
        version: projectVersion(),
        pageLimitDefault: deps.pageLimitDefault,
        pageLimitMax: deps.pageLimitMax,
      }),
    ),
  );
  router.use(
    sparqlPageRoutes({ authenticate: deps.authenticate, visibility: deps.visibility, queries: deps.queries, baseUrl: deps.baseUrl }),
  );
  router.use(consoleRoutes(deps));
  return router;
}
