import { randomBytes } from 'node:crypto';
import type { Term } from '@rdfjs/types';
import { DataFactory, Parser } from 'n3';
import sparqljs from 'sparqljs';
import { canonicalDateTime } from '../../core/rdf/date-times.js';
import { SKOLEM_PREFIX, unskolemised } from '../../core/rdf/skolem.js';
import { termToString } from '../../core/rdf/terms.js';
import type { QueryDataset } from '../../core/ports/quad-store.js';
import type { ServerProfile } from './server-profile.js';

// Skolem IRIs are the node's RDF form (src/core/rdf/skolem.ts); the server's adapter names them here too.
export { SKOLEM_PREFIX, unskolemised };

/*
 * The text the node exchanges with a SPARQL server: blank nodes written as skolem IRIs and turned back
 * in every answer, JSON results read into terms, the dataset written into the query, INSERT DATA blocks.
 */

const { namedNode, blankNode, literal } = DataFactory;

/**
 * Stands for "no graph" in a dataset: the protocol cannot say "the default graph is empty" by
 * leaving default-graph-uri out (Virtuoso then uses every graph), so an empty list names this one,
 * which nothing ever writes.
 */
export const NO_GRAPH = 'urn:dataspace:graph:none';

const SKOLEM_LABEL = '([A-Za-z0-9_-]+)';
const SKOLEM_IN_ANGLES = new RegExp(`<${SKOLEM_PREFIX}${SKOLEM_LABEL}>`, 'g');
const SKOLEM_IN_XML = new RegExp(`<uri>${SKOLEM_PREFIX}${SKOLEM_LABEL}</uri>`, 'g');
const SKOLEM_BARE = new RegExp(`${SKOLEM_PREFIX}${SKOLEM_LABEL}`, 'g');

const XSD_DATE_TIME = 'http://www.w3.org/2001/XMLSchema#dateTime';
// A typed date-time literal as N-Triples, N-Quads, TSV and Turtle with full IRIs write it. The lexical
// characters exclude the backslash, so an escaped quote inside a string literal never starts a match.
const DATE_TIME_IN_TEXT = /"(\d{4}-[0-9T:.+Z-]+)"\^\^<http:\/\/www\.w3\.org\/2001\/XMLSchema#dateTime>/g;

/** A date-time the server answers, in the node's one form (core/rdf/date-times.ts): Virtuoso writes `.800Z` for `.8Z`. */
const nodeDateTime = (lexical: string): string => canonicalDateTime(lexical) ?? lexical;

/** A term of an answer in the node's own forms: a skolem IRI as its blank node, a date-time in the node's form. */
export const inNodeTerm = (term: Term): Term =>
  term.termType === 'Literal' && term.datatype.value === XSD_DATE_TIME
    ? literal(nodeDateTime(term.value), term.datatype)
    : unskolemised(term);

/**
 * A serialised answer in the node's own forms, whatever its format: skolem IRIs turned back into blank
 * nodes, and date-times in the one form the node stores (JSON results, and the RDF and TSV formats).
 */
export function inNodeForms(text: string, contentType: string): string {
  const skolems = text.includes(SKOLEM_PREFIX);
  const dateTimes = text.includes(XSD_DATE_TIME);
  if (!skolems && !dateTimes) return text;
  if (/sparql-results\+json/.test(contentType)) {
    const json = JSON.parse(text) as JsonResults;
    for (const row of json.results?.bindings ?? []) {
      for (const t of Object.values(row)) {
        if (t.type === 'uri' && t.value.startsWith(SKOLEM_PREFIX))
          Object.assign(t, { type: 'bnode', value: t.value.slice(SKOLEM_PREFIX.length) });
        else if (t.datatype === XSD_DATE_TIME) t.value = nodeDateTime(t.value);
      }
    }
    return JSON.stringify(json);
  }
  const times = dateTimes
    ? text.replace(DATE_TIME_IN_TEXT, (whole, lexical: string) => whole.replace(lexical, nodeDateTime(lexical)))
    : text;
  // N-Triples, N-Quads, Turtle, TriG, TSV write <iri>; XML results <uri>; CSV and JSON-LD the bare IRI.
  return skolems ? times.replace(SKOLEM_IN_XML, '<bnode>$1</bnode>').replace(SKOLEM_IN_ANGLES, '_:$1').replace(SKOLEM_BARE, '_:$1') : times;
}

export class SparqlStoreError extends Error {
  override readonly name = 'SparqlStoreError';

  constructor(
    message: string,
    /** The server did not answer at all (down, restarting, unreachable): worth asking again shortly. */
    readonly unanswered = false,
  ) {
    super(message);
  }
}

export interface JsonTerm {
  type: 'uri' | 'literal' | 'typed-literal' | 'bnode';
  value: string;
  datatype?: string;
  'xml:lang'?: string;
}

export interface JsonResults {
  boolean?: boolean;
  results?: { bindings: Record<string, JsonTerm>[] };
}

/** A term of a JSON answer, its boolean forms made canonical as the server's profile says, its date-times in the node's form. */
export function toTerm(t: JsonTerm, profile: Pick<ServerProfile, 'booleanForms'>): Term {
  switch (t.type) {
    case 'uri':
      return unskolemised(namedNode(t.value));
    case 'bnode':
      return blankNode(t.value.replace(/^_:/, '').replace(/[^A-Za-z0-9_-]/g, '_'));
    default:
      if (t.datatype === XSD_BOOLEAN && Object.hasOwn(profile.booleanForms, t.value))
        return literal(profile.booleanForms[t.value]!, namedNode(XSD_BOOLEAN));
      if (t.datatype === XSD_DATE_TIME) return literal(nodeDateTime(t.value), namedNode(XSD_DATE_TIME));
      return literal(t.value, t['xml:lang'] ?? (t.datatype ? namedNode(t.datatype) : undefined));
  }
}

const XSD_BOOLEAN = 'http://www.w3.org/2001/XMLSchema#boolean';

/** One N-Triples term of a change op, checked by parsing (nothing unparsed reaches the update text). */
export function checkedTerm(text: string): string {
  const [quad] = new Parser({ format: 'N-Triples' }).parse(`<urn:x:s> <urn:x:p> ${text} .`);
  if (!quad) throw new SparqlStoreError(`Not an N-Triples term: ${text}`);
  if (quad.object.termType === 'BlankNode') throw new SparqlStoreError('A blank node cannot be named in a delete on a SPARQL server');
  return termToString(quad.object);
}

// One N-Quads line as the node's own writers produce it (single spaces, a named graph): IRIs with no
// escapes and no character N-Triples forbids, literals with only the escapes SPARQL shares (ECHAR; no
// \u, which a SPARQL server decodes before it parses). A line that matches can go into INSERT DATA as
// it is, blank nodes aside; any other line sends the whole insert through the parser.
const IRI = '<[^\\u0000-\\u0020<>"{}|^`\\\\]*>';
const BNODE = '_:[A-Za-z0-9_][A-Za-z0-9_.-]*';
const LITERAL = `"(?:[^"\\\\\\n\\r]|\\\\[tbnrf"'\\\\])*"(?:@[A-Za-z]+(?:-[A-Za-z0-9]+)*|\\^\\^${IRI})?`;
const QUAD_LINE = new RegExp(`^(${IRI}|${BNODE}) (${IRI}) (${IRI}|${BNODE}|${LITERAL}) (${IRI}) \\.$`);

/**
 * N-Quads → N-Triples lines per graph, added to `byGraph`, blank nodes skolemised. Labels name blank
 * nodes within one insert only, so each gets a fresh scope; within it a short counter replaces the
 * parser's long labels (Virtuoso keeps every IRI in a dictionary: shorter IRIs cost it less).
 * `labels` shared between calls makes them one scope (a graph too large for one string, in chunks).
 * Lines are checked with one expression and copied (parsing and writing them again with n3 was a large
 * part of the node's CPU a Create: bench/results/2026-12-07-comment-figures.md); an insert with any other line is parsed whole, as before.
 */
export function addQuadLines(nquads: string, byGraph: Map<string, string[]>, labels = new Map<string, string>()): void {
  const scope = randomBytes(8).toString('hex');
  const skolemLabel = (label: string): string => {
    let short = labels.get(label);
    if (short === undefined) labels.set(label, (short = `${scope}_${labels.size.toString(36)}`));
    return `<${SKOLEM_PREFIX}${short}>`;
  };
  const fast = matchedLines(nquads);
  if (fast) {
    for (const [s, p, o, g] of fast) {
      const graph = g.slice(1, -1);
      let lines = byGraph.get(graph);
      if (!lines) byGraph.set(graph, (lines = []));
      lines.push(`${s.startsWith('_:') ? skolemLabel(s) : s} ${p} ${o.startsWith('_:') ? skolemLabel(o) : o} .`);
    }
    return;
  }
  const skolem = (term: Term): Term => (term.termType === 'BlankNode' ? namedNode(skolemLabel(term.value).slice(1, -1)) : term);
  for (const q of new Parser({ format: 'N-Quads' }).parse(nquads)) {
    if (q.graph.termType !== 'NamedNode') throw new SparqlStoreError('Every quad written to the SPARQL store must name its graph');
    let lines = byGraph.get(q.graph.value);
    if (!lines) byGraph.set(q.graph.value, (lines = []));
    lines.push(`${termToString(skolem(q.subject))} ${termToString(q.predicate)} ${termToString(skolem(q.object))} .`);
  }
}

/** Every non-empty line matched by QUAD_LINE, or undefined when one is not. */
type QuadLine = [subject: string, predicate: string, object: string, graph: string];

function matchedLines(nquads: string): QuadLine[] | undefined {
  const out: QuadLine[] = [];
  for (const line of nquads.split('\n')) {
    if (line.length === 0) continue;
    const m = QUAD_LINE.exec(line);
    if (!m) return undefined;
    // None of the expression's four groups is optional: a match has each.
    out.push([m[1]!, m[2]!, m[3]!, m[4]!]);
  }
  return out;
}

/** The body of one INSERT DATA: one GRAPH block per graph. */
export function graphBlocks(byGraph: Map<string, string[]>): string {
  return [...byGraph].map(([g, lines]) => `GRAPH ${termToString(namedNode(g))} {\n${lines.join('\n')}\n}`).join('\n');
}

/**
 * The query with its FROM / FROM NAMED replaced by the dataset. The protocol's default-graph-uri and
 * named-graph-uri are sent too, but Virtuoso adds them to a FROM in the text instead of letting them
 * override it, and answers ASK over every graph whatever the dataset (both measured on 7.2.5): so the
 * text says the dataset, and an ASK is asked as SELECT … LIMIT 1 (`asked` tells the caller).
 */
export function withDataset(query: string, dataset: QueryDataset): { text: string; asked: boolean } {
  let parsed: sparqljs.SparqlQuery;
  try {
    parsed = new sparqljs.Parser().parse(query);
  } catch (error) {
    throw new SparqlStoreError(`The query does not parse: ${(error as Error).message}`);
  }
  if (parsed.type !== 'query') throw new SparqlStoreError('Only queries can be restricted to a dataset');
  const graphs = (list: string[]) => (list.length > 0 ? list : [NO_GRAPH]).map((g) => namedNode(g));
  parsed.from = { default: graphs(dataset.defaultGraphs), named: graphs(dataset.namedGraphs) };
  if (parsed.queryType !== 'ASK') return { text: new sparqljs.Generator().stringify(parsed), asked: false };
  const select = { ...parsed, queryType: 'SELECT', variables: [new sparqljs.Wildcard()], limit: 1 } as unknown as sparqljs.SelectQuery;
  return { text: new sparqljs.Generator().stringify(select), asked: true };
}

/** An ASK answer in the format asked for (JSON unless XML is asked). */
export function booleanResult(value: boolean, format: string): string {
  return /xml/.test(format)
    ? `<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head/><boolean>${value}</boolean></sparql>\n`
    : JSON.stringify({ head: {}, boolean: value });
}
