import { error, type ApiOperation } from '../api-operation.js';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

/** The reference's own operations, for the OpenAPI document; adapters/http/pages/reference-routes.ts serves them. */
export const referenceOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/',
    operationId: 'frontDoor',
    tag: 'Reference',
    authenticated: false,
    summary: 'The front door: a page leading to the console, the API reference and the SPARQL page, or a JSON index',
    description:
      'By Accept: a browser (text/html) gets a small page; any other client (application/json, `*/*`, no Accept) a JSON index `{name, version, links}` of absolute URLs. Open to anyone.',
    responses: {
      200: {
        description: 'The page or the index',
        content: {
          'application/json': {
            type: 'object',
            required: ['name', 'version', 'links'],
            properties: { name: { type: 'string' }, version: { type: 'string' }, links: { type: 'object' } },
          },
          'text/html': { type: 'string' },
        },
      },
      406: error('An Accept header that names neither'),
    },
  },
  {
    method: 'get',
    path: OPENAPI_PATH,
    operationId: 'openApiDocument',
    tag: 'Reference',
    authenticated: false,
    summary: "This OpenAPI 3.1 document, assembled from the routes' own declarations",
    responses: { 200: { description: 'The document', content: { 'application/json': { type: 'object' } } } },
  },
  {
    method: 'get',
    path: DOCS_PATH,
    operationId: 'apiReferencePage',
    tag: 'Reference',
    authenticated: false,
    summary: 'The API reference page (Swagger UI, served from this node)',
    responses: { 200: { description: 'An HTML page', content: { 'text/html': { type: 'string' } } } },
  },
  {
    method: 'get',
    path: '/favicon.ico',
    operationId: 'favicon',
    tag: 'Reference',
    authenticated: false,
    summary: "The icon browsers show for the node's pages",
    responses: { 200: { description: 'An icon', content: { 'image/x-icon': { type: 'string', format: 'binary' } } } },
  },
];
