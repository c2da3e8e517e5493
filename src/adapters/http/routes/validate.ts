import { Router, type Request, type Response } from 'express';
import type { PayloadValidation, ReportFormat } from '../../../core/activities/validate-payload.js';
import { isObject } from '../../../core/util/json.js';
import { chooseOffer } from '../rdf-response.js';
import { BadRequest } from '../../../core/errors.js';
import { principalOf } from '../authenticate.js';
import { error, ref, type ApiOperation } from '../api-operation.js';

const OFFERS: readonly { mediaType: string; aliases?: readonly string[]; answer: ReportFormat }[] = [
  { mediaType: 'application/json', answer: 'json' },
  { mediaType: 'text/turtle', answer: 'turtle' },
  { mediaType: 'application/ld+json', answer: 'jsonld' },
  { mediaType: 'application/n-quads', aliases: ['text/x-nquads'], answer: 'data' },
];

function wants(req: Request, res: Response): ReportFormat {
  return chooseOffer(req, res, OFFERS).answer;
}

/**
 * POST /supply-chain/data-space/validate: checks an activity or a bare Consignment, SupplyChainEvent
 * or Document against the same shapes as the inbox, storing nothing. 200 {conforms, results}, the
 * sh:ValidationReport itself as Turtle or JSON-LD, or the validated data graph as N-Quads. The work runs
 * where `validation` puts it: on the reader threads, like the inbox, so a large payload does not hold
 * up the event loop.
 */
export function validateRoutes(validation: PayloadValidation): Router {
  const router = Router();
  router.post('/supply-chain/data-space/validate', async (req, res) => {
    const format = wants(req, res);
    const body: unknown = req.body;
    if (!isObject(body))
      throw new BadRequest('The body must be a JSON object: an activity or a bare Consignment, SupplyChainEvent or Document');
    const answer = await validation.validate(body, format, principalOf(req).org.id);
    res.type(answer.contentType).send(answer.body);
  });
  return router;
}

export const validateOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/supply-chain/data-space/validate',
    operationId: 'validatePayload',
    tag: 'Inbox',
    authenticated: true,
    summary: "Check an activity or a bare payload against the inbox's shapes, storing nothing",
    requestBody: {
      required: true,
      content: { 'application/json': { type: 'object', description: 'An Activity, or a bare Consignment, SupplyChainEvent or Document' } },
    },
    responses: {
      200: {
        description: 'The validation result: {conforms, results}, or the sh:ValidationReport by Accept',
        content: { 'application/json': ref('ValidationAnswer'), 'text/turtle': { type: 'string' }, 'application/ld+json': ref('JsonLd') },
      },
      400: error('The body is not a JSON object'),
      413: error('The body is larger than DATASPACE_BODY_LIMIT'),
      429: error("The caller's organisation has DATASPACE_READER_QUEUE_PER_ORG payloads waiting to be read"),
    },
  },
];
