import { Router } from 'express';
import { DOCS_PATH, OPENAPI_PATH } from '../routes/reference.js';
import { docsPage } from './docs-page.js';
import { PAGE_SECURITY_HEADERS } from './html.js';
import { packageDir, staticFiles } from './assets.js';

/** The OpenAPI document and its reference page; both open to anyone, like the interface they describe. */
export function referenceRoutes(document: () => Record<string, unknown>): Router {
  const router = Router();
  let body: string | undefined;
  router.get(OPENAPI_PATH, (_req, res) => {
    body ??= JSON.stringify(document());
    res.type('application/json').set('cache-control', 'no-cache').send(body);
  });
  router.get(DOCS_PATH, (_req, res) => {
    res.set(PAGE_SECURITY_HEADERS).type('html').send(docsPage().text);
  });
  router.use(`${DOCS_PATH}/assets`, staticFiles(packageDir('swagger-ui-dist')));
  return router;
}
