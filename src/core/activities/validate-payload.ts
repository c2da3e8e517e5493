import jsonld from 'jsonld';
import n3 from 'n3';
import type { Quad } from '@rdfjs/types';
import type { PayloadValidator, ValidationResult } from '../validation/index.js';
import { withWarningQuads } from '../validation/report-graph.js';
import { HttpError } from '../errors.js';
import { requireContext } from './context-rules.js';
import { checkJsonShape } from './limits.js';
import { toQuads } from './parse.js';
import { normaliseForms } from './payload-forms.js';
import { describedNodeResults } from './owned-nodes.js';
import { ActivityGraph } from './activity-graph.js';
import { duplicateItemIdentifiers } from './item-identifiers.js';
import { isObject } from '../util/json.js';

const REPORT_CONTEXT = { sh: 'http://www.w3.org/ns/shacl#', xsd: 'http://www.w3.org/2001/XMLSchema#' };

/**
 * How /validate answers: `{conforms, results}` JSON, the sh:ValidationReport as Turtle or JSON-LD, or
 * the data graph that was validated as N-Quads, so a tester can run another SHACL engine over exactly
 * the same RDF.
 */
export type ReportFormat = 'json' | 'turtle' | 'jsonld' | 'data';

/** The answer, serialised where it was computed, so only a string crosses between threads. */
export interface ValidateAnswer {
  contentType: string;
  body: string;
}

/** Checks a payload against the shapes without storing anything (POST /validate). */
export interface PayloadValidation {
  /** Throws the 4xx HttpError of a payload over the limits. */
  validate(body: Record<string, unknown>, format: ReportFormat, organisation?: string): Promise<ValidateAnswer>;
}

/** JSON-LD expansion problems are reported like shape violations: the payload does not conform. */
function expansionResults(error: HttpError): ValidationResult[] {
  const dropped = (error.properties?.droppedTerms as string[] | undefined) ?? [];
  const message = error.message;
  const given = error.properties?.results;
  if (Array.isArray(given)) return given as ValidationResult[];
  const context = error.properties?.at;
  if (dropped.length === 0)
    return [
      {
        focusNode: '(payload)',
        path: typeof context === 'string' ? context : null,
        message,
        severity: 'Violation',
        sourceShape: 'json-ld-expansion',
        value: null,
      },
    ];
  return dropped.map((term) => ({
    focusNode: '(payload)',
    path: term,
    severity: 'Violation',
    sourceShape: 'json-ld-expansion',
    value: null,
    message: `${term} is not defined by the bundled D23B, service or ActivityStreams contexts and would be dropped`,
  }));
}

async function turtle(quads: Quad[]): Promise<string> {
  const writer = new n3.Writer({ prefixes: REPORT_CONTEXT });
  writer.addQuads(quads);
  return new Promise((ok, fail) => writer.end((error, result) => (error ? fail(error) : ok(result))));
}

/** The whole of /validate's work after the request: limits, JSON-LD → RDF, SHACL, the report serialised. */
export async function validatePayload(
  body: Record<string, unknown>,
  format: ReportFormat,
  validator: PayloadValidator,
): Promise<ValidateAnswer> {
  checkJsonShape(body);
  const forms = normaliseForms(body);
  requireContext(forms.json as Record<string, unknown>, 'payload');
  let quads: Quad[];
  try {
    quads = await toQuads(forms.json);
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 422) throw error;
    return { contentType: 'application/json', body: JSON.stringify({ conforms: false, results: expansionResults(error) }) };
  }
  // The inbox's rule on nodes of the node's own spaces (owned-nodes.ts): the object's (or bare object's) own @id is the node's to name.
  const activity = new ActivityGraph(quads);
  const rootId = body['@id'] ?? body.id;
  const owned = activity.object
    ? describedNodeResults(activity.objectQuads(), activity.object, body)
    : describedNodeResults(quads, typeof rootId === 'string' ? n3.DataFactory.namedNode(rootId) : undefined, body);
  if (owned.length > 0) return { contentType: 'application/json', body: JSON.stringify({ conforms: false, results: owned }) };
  if (format === 'data') return { contentType: 'application/n-quads', body: new n3.Writer({ format: 'N-Quads' }).quadsToString(quads) };
  const report = await validator.validate(quads);
  // Rules over the JSON the shapes cannot state: an included consignment's identifier sent twice.
  const json = forms.json as Record<string, unknown>;
  const repeats = duplicateItemIdentifiers(isObject(json.object) ? json.object : json);
  // Accepted non-canonical forms (a bare code) are sh:Warning results: they conform, and say so.
  const warnings: ValidationResult[] = forms.warnings.map((w) => ({
    focusNode: w.path.replace(/\.[^.]*$/, ''),
    path: w.path,
    message: w.message,
    severity: 'Warning',
    sourceShape: 'dsh:CodeForm',
    value: w.value,
  }));
  switch (format) {
    case 'turtle':
      return { contentType: 'text/turtle', body: await turtle(withWarningQuads(report.reportQuads(), warnings)) };
    case 'jsonld': {
      const expanded = await jsonld.fromRDF(withWarningQuads(report.reportQuads(), warnings));
      return { contentType: 'application/ld+json', body: JSON.stringify(await jsonld.compact(expanded, REPORT_CONTEXT)) };
    }
    default:
      return {
        contentType: 'application/json',
        body: JSON.stringify({ conforms: report.conforms && repeats.length === 0, results: [...report.results, ...repeats, ...warnings] }),
      };
  }
}

/** Validation on the calling thread: when the node runs without reader threads. */
export class InlineValidation implements PayloadValidation {
  constructor(private readonly validator: PayloadValidator) {}

  validate(body: Record<string, unknown>, format: ReportFormat): Promise<ValidateAnswer> {
    return validatePayload(body, format, this.validator);
  }
}
