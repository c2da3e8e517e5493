/**
 * What a route tells the API reference about itself. Each route module exports the operations it
 * registers, next to the handlers and the checks they make; src/adapters/http/openapi/ assembles them into one
 * OpenAPI document, and a test compares that document with the routes the app really registered.
 */

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1), or a reference to a shared one. */
export type Schema = { [keyword: string]: unknown };

export interface ApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description: string;
  schema: Schema;
}

export interface ApiResponse {
  description: string;
  /** Media type → schema (an empty object where the body has no fixed shape). */
  content?: Record<string, Schema>;
  headers?: Record<string, { description: string; schema: Schema }>;
}

export interface ApiOperation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';
  /** The path in OpenAPI form: `/consignments/{id}`, not express's `:id`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** Whether the route needs the session cookie or a Bearer token (all but login, the probes and the reference). */
  authenticated: boolean;
  parameters?: ApiParameter[];
  requestBody?: { required: boolean; description?: string; content: Record<string, Schema> };
  /** Status → response. Error statuses answer the one error body unless they say otherwise. */
  responses: Record<string, ApiResponse>;
}

/** A reference to a schema in the document's components (see src/adapters/http/openapi/schemas.ts). */
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** An error response: the `{name, message}` body every HttpError is written as. */
export const error = (description: string): ApiResponse => ({ description, content: { 'application/json': ref('Error') } });

/** A JSON response with the given schema. */
export const json = (description: string, schema: Schema, headers?: ApiResponse['headers']): ApiResponse => ({
  description,
  content: { 'application/json': schema },
  ...(headers ? { headers } : {}),
});

/** An RDF answer in each of `mediaTypes`: JSON-LD is a JSON document, the others text. */
export const rdfContent = (mediaTypes: readonly string[]): Record<string, Schema> =>
  Object.fromEntries(mediaTypes.map((type) => [type, type === 'application/ld+json' ? ref('JsonLd') : { type: 'string' }]));

export const pathId = (name: string, description: string): ApiParameter => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

/** The paging parameters readPage() checks; the document builder fills in the configured default and maximum of `limit`. */
export const pagingParameters = (): ApiParameter[] => [
  {
    name: 'cursor',
    in: 'query',
    description: 'Opaque cursor from the previous page\'s `Link: <…>; rel="next"` header; omit for the first page',
    schema: { type: 'string' },
  },
  { name: 'limit', in: 'query', description: 'Items per page', schema: { type: 'integer', minimum: 1 } },
];

export const LINK_NEXT = { Link: { description: '`<…?cursor=…>; rel="next"` when there is a further page', schema: { type: 'string' } } };
