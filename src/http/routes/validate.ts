import { Router, type Request } from 'express';
import type { PayloadValidation, ReportFormat } from '../../activities/validate-payload.js';
import { isObject } from '../../activities/envelope.js';
import { BadRequest } from '../errors.js';

function wants(req: Request): ReportFormat {
  const type = req.accepts(['application/json', 'text/turtle', 'application/ld+json']);
  return type === 'text/turtle' ? 'turtle' : type === 'application/ld+json' ? 'jsonld' : 'json';
}

/**
 * POST /supply-chain/data-space/validate: checks an activity or a bare Consignment, SupplyChainEvent
 * or Document against the same shapes as the inbox, storing nothing. 200 {conforms, results}, or the
 * sh:ValidationReport itself as Turtle or JSON-LD. The work runs where `validation` puts it: on the
 * reader threads, like the inbox, so a large payload does not hold up the event loop.
 */
export function validateRoutes(validation: PayloadValidation): Router {
  const router = Router();
  router.post('/supply-chain/data-space/validate', async (req, res) => {
    const body: unknown = req.body;
    if (!isObject(body)) throw new BadRequest('The body must be a JSON object: an activity or a bare Consignment, SupplyChainEvent or Document');
    const answer = await validation.validate(body, wants(req));
    res.type(answer.contentType).send(answer.body);
  });
  return router;
}
