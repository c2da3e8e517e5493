import type { QueryForm } from './query.js';

/** Media types of SELECT/ASK results, the first being the default; aliases map onto them. */
export const RESULT_TYPES = [
  'application/sparql-results+json',
  'application/sparql-results+xml',
  'text/csv',
  'text/tab-separated-values',
  'application/json',
  'application/xml',
] as const;

/** Media types of CONSTRUCT/DESCRIBE results, the first being the default. */
export const GRAPH_TYPES = [
  'text/turtle',
  'application/n-triples',
  'application/n-quads',
  'application/trig',
  'application/ld+json',
  'application/rdf+xml',
] as const;

const ALIASES: Record<string, string> = {
  'application/json': 'application/sparql-results+json',
  'application/xml': 'application/sparql-results+xml',
};

export const offeredTypes = (form: QueryForm): readonly string[] => (form === 'SELECT' || form === 'ASK' ? RESULT_TYPES : GRAPH_TYPES);

/** Other names clients send for the same syntaxes (rapper, rasqal, older Jena and RDFLib). */
export const TYPE_ALIASES: Record<string, readonly string[]> = {
  'text/turtle': ['application/x-turtle'],
  'application/n-quads': ['text/x-nquads', 'application/x-nquads'],
  'application/trig': ['application/x-trig'],
  'application/n-triples': ['text/x-ntriples'],
  'application/sparql-results+json': [],
  'application/sparql-results+xml': [],
};

/**
 * A CONSTRUCT or DESCRIBE asked with an Accept that names no RDF syntax (a generic client that sends
 * the same header for every query: rdflib's SPARQLStore in json, csv or tsv mode) gets RDF/XML instead
 * of 406 (SPARQL 1.1 Protocol 2.1.6 leaves the format to the server): rdflib reads a graph answer only
 * as RDF/XML, Jena and the other clients read it too.
 */
export function graphFallback(form: QueryForm, acceptsResults: boolean): string | undefined {
  return (form === 'CONSTRUCT' || form === 'DESCRIBE') && acceptsResults ? 'application/rdf+xml' : undefined;
}

/**
 * The media types that carry an ASK's boolean as such. An ASK is answered in one of them whenever the
 * client accepts one at all, even below CSV or TSV: a table is a SELECT's form, and clients read a
 * boolean from it differently (rdflib counts its rows, so `false` came back true).
 */
export const BOOLEAN_TYPES = [
  'application/sparql-results+json',
  'application/sparql-results+xml',
  'application/json',
  'application/xml',
] as const;

/**
 * The boolean of an ASK in CSV and TSV, for a client that accepts nothing else. The W3C CSV/TSV results
 * format defines SELECT only; the answer is the table Jena writes and reads back as a boolean: one
 * variable `_askResult` with one row holding it.
 */
export function askTable(text: string, format: string): string {
  const value = /true/i.test(text.trim()) ? 'true' : 'false';
  return format === 'text/csv' ? `_askResult\r\n${value}\r\n` : `?_askResult\n${value}\n`;
}

/** The format the engine writes for a negotiated media type. */
export const engineFormat = (mediaType: string): string => ALIASES[mediaType] ?? mediaType;

/** Rows of a serialised SELECT result, counted without parsing the values. */
export function countRows(text: string, format: string): number {
  switch (format) {
    case 'application/sparql-results+json':
      return (JSON.parse(text) as { results?: { bindings?: unknown[] } }).results?.bindings?.length ?? 0;
    case 'application/sparql-results+xml':
      // Values are escaped, so the tag can only be a tag.
      return text.split('<result>').length - 1;
    case 'text/tab-separated-values':
      // Newlines inside values are escaped; one line per row after the header.
      return Math.max(0, text.split('\n').filter((line) => line.length > 0).length - 1);
    case 'text/csv':
      return csvRecords(text) - 1;
    default:
      throw new Error(`No row counter for ${format}`);
  }
}

/** Records of RFC 4180 CSV: line breaks inside quoted fields do not end a record. */
function csvRecords(text: string): number {
  let records = 0;
  let quoted = false;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    if (c === '\n' && !quoted) {
      records++;
      started = false;
    } else if (c !== '\r') started = true;
  }
  return records + (started ? 1 : 0);
}

/** Triples of an N-Triples document: one per line. */
export function countTriples(ntriples: string): number {
  let count = 0;
  for (let i = ntriples.indexOf('\n'); i !== -1; i = ntriples.indexOf('\n', i + 1)) count++;
  return ntriples.length > 0 && !ntriples.endsWith('\n') ? count + 1 : count;
}
