import { Router, type Request, type Response } from 'express';
import { chooseOffer } from '../rdf-response.js';
import jsonld from 'jsonld';
import n3 from 'n3';
import type { Quad } from '@rdfjs/types';
import type { PayloadValidator, ValidationResult } from '../../validation/index.js';
import { checkJsonShape } from '../../activities/limits.js';
import { toQuads } from '../../activities/parse.js';
import { isObject } from '../../activities/envelope.js';
import { requireContext } from '../../activities/context-rules.js';
import { normaliseForms } from '../../activities/payload-forms.js';
import { withWarningQuads } from '../../validation/report-graph.js';
import { BadRequest, HttpError } from '../errors.js';
import { error, ref, type ApiOperation } from '../api-operation.js';

const REPORT_CONTEXT = { sh: 'http://www.w3.org/ns/shacl#', xsd: 'http://www.w3.org/2001/XMLSchema#' };

/** JSON-LD expansion problems are reported like shape violations: the payload does not conform. */
function expansionResults(error: HttpError): ValidationResult[] {
  const dropped = (error.properties?.droppedTerms as string[] | undefined) ?? [];
  const message = error.message;
  const given = error.properties?.results;
  if (Array.isArray(given)) return given as ValidationResult[];
  const context = error.properties?.at;
  if (dropped.length === 0) return [{ focusNode: '(payload)', path: typeof context === 'string' ? context : null, message, severity: 'Violation', sourceShape: 'json-ld-expansion', value: null }];
  return dropped.map((term) => ({
    focusNode: '(payload)', path: term, severity: 'Violation', sourceShape: 'json-ld-expansion', value: null,
    message: `${term} is not defined by the bundled D23B, service or ActivityStreams contexts and would be dropped`,
  }));
}

/**
 * The verdict as JSON (default), the sh:ValidationReport as Turtle or JSON-LD, or the data graph that
 * was validated as N-Quads, so a tester can run another SHACL engine over exactly the same RDF.
 */
const OFFERS = [
  { mediaType: 'application/json', answer: 'json' },
  { mediaType: 'text/turtle', answer: 'turtle' },
  { mediaType: 'application/ld+json', answer: 'jsonld' },
  { mediaType: 'application/n-quads', aliases: ['text/x-nquads'], answer: 'data' },
] as const;

function wants(req: Request, res: Response): (typeof OFFERS)[number]['answer'] {
  return chooseOffer(req, res, OFFERS).answer;
}

async function turtle(quads: Quad[]): Promise<string> {
  const writer = new n3.Writer({ prefixes: REPORT_CONTEXT });
  writer.addQuads(quads);
  return new Promise((ok, fail) => writer.end((error, result) => (error ? fail(error) : ok(result))));
}

/**
 * POST /supply-chain/data-space/validate: checks an activity or a bare Consignment, SupplyChainEvent
 * or Document against the same shapes as the inbox, storing nothing. 200 {conforms, results}, or the
 * sh:ValidationReport itself as Turtle or JSON-LD.
 */
export function validateRoutes(validator: PayloadValidator): Router {
  const router = Router();
  router.post('/supply-chain/data-space/validate', async (req, res) => {
    const answer = wants(req, res);
    const body: unknown = req.body;
    if (!isObject(body)) throw new BadRequest('The body must be a JSON object: an activity or a bare Consignment, SupplyChainEvent or Document');
    checkJsonShape(body);
    requireContext(body, 'payload');
    const forms = normaliseForms(body);
    let quads: Quad[];
    try {
      quads = await toQuads(forms.json);
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 422) throw error;
      res.json({ conforms: false, results: expansionResults(error) });
      return;
    }
    const report = await validator.validate(quads);
    // Accepted non-canonical forms (a bare countryId) are sh:Warning results: they conform, and say so.
    const warnings: ValidationResult[] = forms.warnings.map((w) => ({
      focusNode: w.path.replace(/\.[^.]*$/, ''), path: w.path, message: w.message, severity: 'Warning', sourceShape: 'dsh:CountryIdForm', value: w.value,
    }));
    switch (answer) {
      case 'data': {
        const writer = new n3.Writer({ format: 'N-Quads' });
        res.type('application/n-quads').send(writer.quadsToString(quads));
        return;
      }
      case 'turtle':
        res.type('text/turtle').send(await turtle(withWarningQuads(report.reportQuads(), warnings)));
        return;
      case 'jsonld': {
        const expanded = await jsonld.fromRDF(withWarningQuads(report.reportQuads(), warnings) as never);
        res.type('application/ld+json').send(JSON.stringify(await jsonld.compact(expanded, REPORT_CONTEXT)));
        return;
      }
      default:
        res.json({ conforms: report.conforms, results: [...report.results, ...warnings] });
    }
  });
  return router;
}

export const validateOperations: ApiOperation[] = [{
  method: 'post', path: '/supply-chain/data-space/validate', operationId: 'validatePayload', tag: 'Inbox', authenticated: true,
  summary: 'Check an activity or a bare payload against the inbox\'s shapes, storing nothing',
  requestBody: { required: true, content: { 'application/json': { type: 'object', description: 'An Activity, or a bare Consignment, SupplyChainEvent or Document' } } },
  responses: {
    200: {
      description: 'The validation result: {conforms, results}, or the sh:ValidationReport by Accept',
      content: { 'application/json': ref('ValidationAnswer'), 'text/turtle': { type: 'string' }, 'application/ld+json': { type: 'object' } },
    },
    400: error('The body is not a JSON object'),
    413: error('The body is larger than DATASPACE_BODY_LIMIT'),
  },
}];
