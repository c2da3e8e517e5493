import { createHash } from 'node:crypto';
import jsonld from 'jsonld';
import n3 from 'n3';
import oxigraph from 'oxigraph';
import rdfCanonize from 'rdf-canonize';
import type { Quad } from '@rdfjs/types';
import { D23B_CONTEXT_URL, ODRL, RDF, SVC, UNECE, XSD } from '../rdf/namespaces.js';
import { documentLoader, serviceContext } from '../rdf/document-loader.js';

export const JSONLD_EXPANDED = 'http://www.w3.org/ns/json-ld#expanded';
export const JSONLD_COMPACTED = 'http://www.w3.org/ns/json-ld#compacted';

export type RdfSyntax = 'turtle' | 'trig' | 'ntriples' | 'nquads' | 'rdfxml' | 'jsonld' | 'jsonld-expanded';

/** One RDF syntax as an offer of content negotiation (structurally an http/negotiate Offer; views do not import http). */
export interface RdfFormat {
  syntax: RdfSyntax;
  mediaType: string;
  aliases?: readonly string[];
  profile?: string;
  /** Whether the syntax keeps named graphs; the others get the graphs merged. */
  datasets: boolean;
}

/** Every RDF syntax the node writes, in the order a `*\/*` client gets them after a resource's own default. */
export const RDF_FORMATS: readonly RdfFormat[] = [
  { syntax: 'turtle', mediaType: 'text/turtle', aliases: ['application/x-turtle'], datasets: false },
  { syntax: 'trig', mediaType: 'application/trig', aliases: ['application/x-trig'], datasets: true },
  { syntax: 'ntriples', mediaType: 'application/n-triples', aliases: ['text/x-ntriples'], datasets: false },
  { syntax: 'nquads', mediaType: 'application/n-quads', aliases: ['text/x-nquads', 'application/x-nquads'], datasets: true },
  { syntax: 'rdfxml', mediaType: 'application/rdf+xml', datasets: false },
  { syntax: 'jsonld', mediaType: 'application/ld+json', profile: JSONLD_COMPACTED, datasets: true },
  { syntax: 'jsonld-expanded', mediaType: 'application/ld+json', profile: JSONLD_EXPANDED, datasets: true },
];

/** One format by its syntax name. */
export const formatFor = (syntax: RdfSyntax): RdfFormat => RDF_FORMATS.find((f) => f.syntax === syntax)!;

/** Prefixes of Turtle and TriG output: the vocabularies the node's data uses. */
export const PREFIXES: Record<string, string> = {
  unece: UNECE,
  svc: SVC,
  rdf: RDF,
  xsd: XSD,
  odrl: ODRL,
  sh: 'http://www.w3.org/ns/shacl#',
  sd: 'http://www.w3.org/ns/sparql-service-description#',
  void: 'http://rdfs.org/ns/void#',
};

/**
 * The compaction context: D23B by reference, then the service terms inline, so a client that fetches
 * the published D23B release (which lacks consignor, UNLocode, ...) still expands every term.
 */
const compactContext = (): unknown => [D23B_CONTEXT_URL, serviceContext()];

export interface RdfRepresentation {
  contentType: string;
  body: string;
  /** A strong entity tag of exactly these bytes. */
  etag: string;
}

function quadLine(q: Quad, keepGraph: boolean): string {
  const writer = new n3.Writer({ format: 'N-Quads' });
  return writer.quadToString(q.subject, q.predicate, q.object, keepGraph ? q.graph : undefined);
}

/**
 * The quads with canonical blank-node labels (RDFC-1.0) in canonical order, so the same data is always
 * the same bytes: one entity tag for an unchanged resource, whatever labels the store hands out.
 */
export async function canonicalQuads(quads: readonly Quad[], keepGraphs: boolean): Promise<Quad[]> {
  const lines = [...new Set(quads.map((q) => quadLine(q, keepGraphs)))];
  let canonical: string;
  try {
    canonical = (await rdfCanonize.canonize(lines.join(''), {
      algorithm: 'RDFC-1.0',
      inputFormat: 'application/n-quads',
      format: 'application/n-quads',
    })) as string;
  } catch {
    // A graph too costly to canonicalise (rdf-canonize's work limit): still sorted, only labels may vary.
    canonical = lines.sort().join('');
  }
  return new n3.Parser({ format: 'N-Quads', blankNodePrefix: '' }).parse(canonical);
}

function n3Write(quads: Quad[], format: string, prefixes?: Record<string, string>): Promise<string> {
  const writer = new n3.Writer({ format, prefixes });
  writer.addQuads(quads);
  return new Promise((ok, fail) => writer.end((error, result) => (error ? fail(error) : ok(result))));
}

async function jsonLd(quads: Quad[], expanded: boolean, contextUrl: string | undefined): Promise<string> {
  const nquads = await n3Write(quads, 'N-Quads');
  const doc = await jsonld.fromRDF(nquads, { format: 'application/n-quads' });
  if (expanded) return JSON.stringify(doc);
  typeStrings(doc);
  // Compacted by URL (the loader's D23B already holds the service terms, and jsonld.js keeps its processed
  // form), then the document cites the URL and the service terms inline: the same terms, any client.
  const compacted = (await jsonld.compact(doc, D23B_CONTEXT_URL as never, { documentLoader: documentLoader as never })) as Record<
    string,
    unknown
  >;
  // Named at the node (contextUrl), the context is one a client fetches from the node it asked, no one else.
  return JSON.stringify({
    '@context': contextUrl ?? compactContext(),
    ...Object.fromEntries(Object.entries(compacted).filter(([k]) => k !== '@context')),
  });
}

/** RDF/XML by Oxigraph's writer (n3 has none); terms are added one by one so blank nodes keep their canonical labels. */
function rdfXml(quads: Quad[]): string {
  const store = new oxigraph.Store();
  const term = (t: Quad['subject'] | Quad['object']): never => {
    if (t.termType === 'BlankNode') return oxigraph.blankNode(t.value) as never;
    if (t.termType === 'Literal') return oxigraph.literal(t.value, t.language ? t.language : oxigraph.namedNode(t.datatype.value)) as never;
    return oxigraph.namedNode(t.value) as never;
  };
  for (const q of quads)
    store.add(oxigraph.quad(term(q.subject), oxigraph.namedNode(q.predicate.value), term(q.object), oxigraph.defaultGraph()));
  return store.dump({ format: 'application/rdf+xml', from_graph_name: oxigraph.defaultGraph() });
}

/**
 * RDF 1.1 plain literals are xsd:string, but jsonld.fromRDF leaves their type off, and D23B coerces
 * most terms to xsd:string: without the type back on, compaction would fall back to `unece:globalId`
 * instead of the term `globalId`. The RDF is the same either way.
 */
function typeStrings(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) typeStrings(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const object = node as Record<string, unknown>;
  if ('@value' in object) {
    if (typeof object['@value'] === 'string' && object['@type'] === undefined && object['@language'] === undefined)
      object['@type'] = `${XSD}string`;
    return;
  }
  for (const value of Object.values(object)) typeStrings(value);
}

/** Quads written in one syntax, with stable blank-node labels, prefixes where the syntax has them, and an entity tag. */
export async function writeRdf(quads: readonly Quad[], format: RdfFormat, contextUrl?: string): Promise<RdfRepresentation> {
  const canonical = await canonicalQuads(quads, format.datasets);
  let body: string;
  switch (format.syntax) {
    case 'turtle':
      body = await n3Write(canonical, 'Turtle', PREFIXES);
      break;
    case 'trig':
      body = await n3Write(canonical, 'TriG', PREFIXES);
      break;
    case 'ntriples':
      body = await n3Write(canonical, 'N-Triples');
      break;
    case 'nquads':
      body = await n3Write(canonical, 'N-Quads');
      break;
    case 'rdfxml':
      body = rdfXml(canonical);
      break;
    case 'jsonld':
      body = await jsonLd(canonical, false, contextUrl);
      break;
    case 'jsonld-expanded':
      body = await jsonLd(canonical, true, contextUrl);
      break;
  }
  const contentType = format.profile === JSONLD_EXPANDED ? `${format.mediaType}; profile="${JSONLD_EXPANDED}"` : format.mediaType;
  const etag = `"${createHash('sha256').update(contentType).update('\n').update(body).digest('base64url')}"`;
  return { contentType, body, etag };
}
