import type { ApiOperation, ApiResponse, Schema } from '../api-operation.js';
import { error } from '../api-operation.js';
import { COMPONENT_SCHEMAS } from './schemas.js';

export interface DocumentOptions {
  baseUrl: string;
  version: string;
  pageLimitDefault: number;
  pageLimitMax: number;
}

type Json = Record<string, unknown>;

const TAGS: { name: string; description: string }[] = [
  { name: 'Authentication', description: 'Log in for the access_token cookie (or use its value as a Bearer token)' },
  { name: 'Inbox', description: 'Publish activities; check payloads; read activity-log entries' },
  { name: 'Consignments', description: 'Read views of the consignments the caller may read (data-sharing policies decide)' },
  { name: 'Documents', description: 'Documents attached to readable consignments, and their files' },
  { name: 'Signals', description: 'Where signals go and how their delivery went' },
  { name: 'Policies', description: 'Data-sharing policies of freight forwarders' },
  { name: 'SPARQL', description: "SPARQL 1.1 Protocol over the caller's visible graphs" },
  { name: 'Reference', description: 'This document and its reference page' },
  { name: 'Operations', description: 'Probes and metrics for whoever runs the node' },
];

/** The configured bounds of `limit`, which the operations cannot know when they are declared. */
function parameters(op: ApiOperation, options: DocumentOptions): Json[] | undefined {
  return op.parameters?.map((p) => {
    const schema: Schema =
      p.name === 'limit' && p.in === 'query' ? { ...p.schema, maximum: options.pageLimitMax, default: options.pageLimitDefault } : p.schema;
    const explode = Array.isArray(p.schema.type) || p.schema.type === 'array';
    return {
      name: p.name,
      in: p.in,
      required: p.required ?? p.in === 'path',
      description: p.description,
      schema,
      ...(explode ? { style: 'form', explode: true } : {}),
    };
  });
}

function response(r: ApiResponse): Json {
  return {
    description: r.description,
    ...(r.headers ? { headers: r.headers } : {}),
    ...(r.content ? { content: Object.fromEntries(Object.entries(r.content).map(([type, schema]) => [type, { schema }])) } : {}),
  };
}

function operation(op: ApiOperation, options: DocumentOptions): Json {
  const responses: Record<string, ApiResponse> = { ...op.responses };
  // Every authenticated route answers 401 alike; said once here rather than in each route.
  if (op.authenticated && !responses[401]) responses[401] = error('Missing or invalid credentials');
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.authenticated ? {} : { security: [] }),
    ...(op.parameters ? { parameters: parameters(op, options) } : {}),
    ...(op.requestBody
      ? {
          requestBody: {
            required: op.requestBody.required,
            ...(op.requestBody.description ? { description: op.requestBody.description } : {}),
            content: Object.fromEntries(Object.entries(op.requestBody.content).map(([type, schema]) => [type, { schema }])),
          },
        }
      : {}),
    responses: Object.fromEntries(Object.entries(responses).map(([status, r]) => [status, response(r)])),
  };
}

/** Assembles the OpenAPI 3.1 document from the operations the route modules declare. */
export function openApiDocument(operations: readonly ApiOperation[], options: DocumentOptions): Json {
  const paths: Record<string, Record<string, Json>> = {};
  const ids = new Set<string>();
  for (const op of operations) {
    if (ids.has(op.operationId)) throw new Error(`operationId ${op.operationId} is declared twice`);
    ids.add(op.operationId);
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`${op.method.toUpperCase()} ${op.path} is declared twice`);
    item[op.method] = operation(op, options);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Supply-chain data-space node',
      version: options.version,
      description:
        'One inbox for consignments, events and documents (ActivityStreams activities carrying UN/CEFACT D23B JSON-LD), ' +
        "read views filtered by the publishers' data-sharing policies, and a SPARQL endpoint over the same visible graphs. " +
        'Log in with POST /authentication/login; the browser then sends the access_token cookie with every call made from this page.',
    },
    // First the address this document was fetched from (a relative URL, OpenAPI 3.1 §4.8.5), so the
    // reference page's "Try it out" stays on the page's own origin and session; then the public one.
    servers: [
      { url: '/', description: 'This node, at the address this document was fetched from' },
      { url: options.baseUrl, description: "The node's public base URL" },
    ],
    tags: TAGS,
    security: [{ cookie: [] }, { bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        cookie: { type: 'apiKey', in: 'cookie', name: 'access_token', description: 'Set by POST /authentication/login' },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: "The access_token cookie's value; wins over the cookie when both are sent",
        },
      },
      schemas: COMPONENT_SCHEMAS,
    },
  };
}
