import type { Literal, Quad, Term } from '@rdfjs/types';
import { RDF_TYPE, XSD } from './namespaces.js';
import { eachStatement } from './ntriples-text.js';

/** A node object in expanded JSON-LD form: `@id`, `@type` and full-IRI properties with value arrays. */
export type ExpandedNode = Record<string, unknown> & { '@id': string };

export interface ValueObject {
  '@value': string | number | boolean;
  '@type'?: string;
}

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const LIST_TERMS = new Set([`${RDF}first`, `${RDF}rest`, `${RDF}nil`]);
const XSD_STRING = `${XSD}string`;
const XSD_BOOLEAN = `${XSD}boolean`;
const XSD_INTEGER = `${XSD}integer`;
const XSD_DOUBLE = `${XSD}double`;

// jsonld.js's test, kept as is so numbers convert exactly as jsonld.fromRDF converts them.
const isNumeric = (v: string): boolean => !Number.isNaN(parseFloat(v)) && Number.isFinite(Number(v));

/** A literal as jsonld.fromRDF writes it with useNativeTypes (its quirks included); undefined for what is not mirrored. */
export function literalValue(literal: Literal): ValueObject | undefined {
  return literalOf(literal.value, literal.datatype?.value, literal.language);
}

function literalOf(lexical: string, datatype: string | undefined, language: string | undefined): ValueObject | undefined {
  if (language) return undefined;
  const type = datatype || XSD_STRING;
  if (type === `${RDF}JSON`) return undefined;
  const value: ValueObject = { '@value': lexical };
  if (type === XSD_BOOLEAN) {
    if (lexical === 'true' || lexical === '1') value['@value'] = true;
    else if (lexical === 'false' || lexical === '0') value['@value'] = false;
    else value['@type'] = type;
  } else if (type === XSD_INTEGER) {
    if (isNumeric(lexical)) {
      const i = parseInt(lexical, 10);
      if (i.toFixed(0) === lexical) value['@value'] = i;
    } else {
      value['@type'] = type;
    }
  } else if (type === XSD_DOUBLE) {
    if (isNumeric(lexical)) value['@value'] = parseFloat(lexical);
    else value['@type'] = type;
  } else {
    value['@type'] = type;
  }
  return value;
}

const nodeId = (term: Term): string => (term.termType === 'BlankNode' ? `_:${term.value}` : term.value);

/** Adds one triple to a node map, as jsonld.fromRDF does; false when the triple is not mirrored. */
function addTriple(nodes: Map<string, ExpandedNode>, s: string, p: string, object: { id: string } | ValueObject | undefined): boolean {
  if (object === undefined || LIST_TERMS.has(p) || ('id' in object && LIST_TERMS.has(object.id))) return false;
  let node = nodes.get(s);
  if (!node) {
    node = { '@id': s };
    nodes.set(s, node);
  }
  if ('id' in object) {
    if (p === RDF_TYPE) ((node['@type'] ??= []) as string[]).push(object.id);
    else ((node[p] ??= []) as unknown[]).push({ '@id': object.id });
  } else {
    ((node[p] ??= []) as unknown[]).push(object);
  }
  return true;
}

/**
 * The subjects of one graph's quads as expanded node objects, as jsonld.fromRDF (useNativeTypes) builds
 * them: rdf:type objects become `@type`, values keep quad order. Returns undefined for what it does not
 * mirror (RDF lists, language-tagged and JSON literals), so the caller can use jsonld.js itself.
 */
export function expandedNodes(quads: readonly Quad[]): Map<string, ExpandedNode> | undefined {
  const nodes = new Map<string, ExpandedNode>();
  for (const quad of quads) {
    const o = quad.object;
    const object =
      o.termType === 'Literal' ? literalValue(o) : o.termType === 'NamedNode' || o.termType === 'BlankNode' ? { id: nodeId(o) } : undefined;
    if (!addTriple(nodes, nodeId(quad.subject), quad.predicate.value, object)) return undefined;
  }
  return nodes;
}

/**
 * expandedNodes from N-Triples text (a CONSTRUCT answered as application/n-triples). Reading the text
 * costs far less than touching Oxigraph's RDF/JS terms, whose every property is fetched from wasm.
 * Returns undefined for a line it does not read, as well as for what expandedNodes does not mirror.
 */
export function expandedNodesFromNTriples(text: string): Map<string, ExpandedNode> | undefined {
  const nodes = new Map<string, ExpandedNode>();
  const read = eachStatement(text, (subject, predicate, object) =>
    addTriple(
      nodes,
      subject,
      predicate,
      'iri' in object
        ? { id: object.iri }
        : 'blank' in object
          ? { id: object.blank }
          : literalOf(object.lexical, object.datatype, object.language),
    ),
  );
  return read ? nodes : undefined;
}
