import { Router } from 'express';
import type { ApiOperation } from '../api-operation.js';
import { docsPage } from '../../pages/docs-page.js';
import { PAGE_SECURITY_HEADERS } from '../../pages/html.js';
import { packageDir, staticFiles } from '../../pages/assets.js';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

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

export const referenceOperations: ApiOperation[] = [
  {
    method: 'get', path: OPENAPI_PATH, operationId: 'openApiDocument', tag: 'Reference', authenticated: false,
    summary: 'This OpenAPI 3.1 document, assembled from the routes\' own declarations',
    responses: { 200: { description: 'The document', content: { 'application/json': { type: 'object' } } } },
  },
  {
    method: 'get', path: DOCS_PATH, operationId: 'apiReferencePage', tag: 'Reference', authenticated: false,
    summary: 'The API reference page (Swagger UI, served from this node)',
    responses: { 200: { description: 'An HTML page', content: { 'text/html': { type: 'string' } } } },
  },
];
