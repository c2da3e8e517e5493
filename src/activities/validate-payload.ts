import jsonld from 'jsonld';
import n3 from 'n3';
import type { Quad } from '@rdfjs/types';
import type { PayloadValidator, ValidationResult } from '../validation/index.js';
import { HttpError } from '../http/errors.js';
import { checkJsonShape } from './limits.js';
import { toQuads } from './parse.js';

const REPORT_CONTEXT = { sh: 'http://www.w3.org/ns/shacl#', xsd: 'http://www.w3.org/2001/XMLSchema#' };

/** How /validate answers: `{conforms, results}` JSON, or the sh:ValidationReport as Turtle or JSON-LD. */
export type ReportFormat = 'json' | 'turtle' | 'jsonld';

/** The answer, serialised where it was computed, so only a string crosses between threads. */
export interface ValidateAnswer {
  contentType: string;
  body: string;
}

/** Checks a payload against the shapes without storing anything (POST /validate). */
export interface PayloadValidation {
  /** Throws the 4xx HttpError of a payload over the limits. */
  validate(body: unknown, format: ReportFormat): Promise<ValidateAnswer>;
}

/** JSON-LD expansion problems are reported like shape violations: the payload does not conform. */
function expansionResults(error: HttpError): ValidationResult[] {
  const dropped = (error.properties?.droppedTerms as string[] | undefined) ?? [];
  const message = error.message;
  if (dropped.length === 0) return [{ focusNode: '(payload)', path: null, message, severity: 'Violation', sourceShape: 'json-ld-expansion', value: null }];
  return dropped.map((term) => ({
    focusNode: '(payload)', path: term, severity: 'Violation', sourceShape: 'json-ld-expansion', value: null,
    message: `${term} is not defined by the bundled D23B, service or ActivityStreams contexts and would be dropped`,
  }));
}

async function turtle(quads: Quad[]): Promise<string> {
  const writer = new n3.Writer({ prefixes: REPORT_CONTEXT });
  writer.addQuads(quads);
  return new Promise((ok, fail) => writer.end((error, result) => (error ? fail(error) : ok(result))));
}

/** The whole of /validate's work after the request: limits, JSON-LD → RDF, SHACL, the report serialised. */
export async function validatePayload(body: unknown, format: ReportFormat, validator: PayloadValidator): Promise<ValidateAnswer> {
  checkJsonShape(body);
  let quads: Quad[];
  try {
    quads = await toQuads(body);
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 422) throw error;
    return { contentType: 'application/json', body: JSON.stringify({ conforms: false, results: expansionResults(error) }) };
  }
  const report = await validator.validate(quads);
  switch (format) {
    case 'turtle':
      return { contentType: 'text/turtle', body: await turtle(report.reportQuads()) };
    case 'jsonld': {
      const expanded = await jsonld.fromRDF(report.reportQuads() as never);
      return { contentType: 'application/ld+json', body: JSON.stringify(await jsonld.compact(expanded, REPORT_CONTEXT)) };
    }
    default:
      return { contentType: 'application/json', body: JSON.stringify({ conforms: report.conforms, results: report.results }) };
  }
}

/** Validation on the calling thread: when the node runs without reader threads. */
export class InlineValidation implements PayloadValidation {
  constructor(private readonly validator: PayloadValidator) {}

  validate(body: unknown, format: ReportFormat): Promise<ValidateAnswer> {
    return validatePayload(body, format, this.validator);
  }
}
