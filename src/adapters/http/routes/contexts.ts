import { Router } from 'express';
import { NotFound } from '../../../core/errors.js';
import { CONTEXTS_PATH, SERVED_CONTEXTS } from '../../../core/rdf/document-loader.js';
import { error, type ApiOperation } from '../api-operation.js';

const NAMES = [...SERVED_CONTEXTS.keys()];

export const contextOperations: ApiOperation[] = [
  {
    method: 'get',
    path: `${CONTEXTS_PATH}/{name}`,
    operationId: 'getContext',
    tag: 'Reference',
    authenticated: false,
    summary: 'A JSON-LD context bundled with the node, as the node reads it',
    description:
      'Compacted JSON-LD answers name `…/contexts/unece-context-D23B.jsonld` (the D23B release followed by the service terms), ' +
      'so a client expands them with what this node serves. Open to anyone; cached for a day.',
    parameters: [
      { name: 'name', in: 'path', required: true, description: "The context's file name", schema: { type: 'string', enum: NAMES } },
    ],
    responses: {
      200: { description: 'The context document', content: { 'application/ld+json': { type: 'object', required: ['@context'] } } },
      404: error('No context of that name'),
    },
  },
];

/** The bundled JSON-LD contexts at stable URLs of the node, open to anyone like the vocabulary they describe. */
export function contextRoutes(): Router {
  const router = Router();
  const bodies = new Map([...SERVED_CONTEXTS].map(([name, document]) => [name, JSON.stringify(document)]));
  router.get(`${CONTEXTS_PATH}/:name`, (req, res) => {
    const body = bodies.get(req.params.name);
    if (body === undefined) throw new NotFound(`No context ${req.params.name}; this node serves ${NAMES.join(', ')}`);
    // Contexts change only with a release of the node: a day in any cache; CORS-readable (no credentials).
    res.set({ 'cache-control': 'public, max-age=86400', 'access-control-allow-origin': '*' }).type('application/ld+json').send(body);
  });
  return router;
}
