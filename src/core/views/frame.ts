import jsonld from 'jsonld';
import type { Quad } from '@rdfjs/types';
import { documentLoader } from '../rdf/document-loader.js';
import { D23B_CONTEXT_URL } from '../rdf/namespaces.js';
import { Parser } from 'n3';
import { expandedNodes, expandedNodesFromNTriples, type ExpandedNode } from '../rdf/expanded-nodes.js';
import { MemoCompactor, NotMemoisable } from '../rdf/memo-compactor.js';
import { restoreArrays } from './array-shape.js';
import { restoreSentForms } from './sent-forms.js';
import { restoreValueOrder, takeSentId } from './value-order.js';
import { restoreScalars } from './sent-scalars.js';

type NodeObject = Record<string, unknown> & { '@id': string };

function toJsonLdQuad(q: Quad): unknown {
  const term = (t: Quad['subject'] | Quad['object']) =>
    t.termType === 'Literal'
      ? { termType: 'Literal', value: t.value, datatype: { termType: 'NamedNode', value: t.datatype.value }, language: t.language }
      : { termType: t.termType, value: t.termType === 'BlankNode' && !t.value.startsWith('_:') ? `_:${t.value}` : t.value };
  return {
    subject: term(q.subject),
    predicate: { termType: 'NamedNode', value: q.predicate.value },
    object: term(q.object),
    graph: { termType: 'DefaultGraph', value: '' },
  };
}

/**
 * The node with the nodes it uses embedded where they are used: blank nodes, and named nodes that have
 * fields of their own in the graph (a location sent as `{id: "unece:LOCODE#NLRTM", name: …}` reads back
 * as that object, not as its bare id). The root's own id is left out.
 */
function embed(node: NodeObject, nodes: Map<string, NodeObject>, path: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, values] of Object.entries(node)) {
    if (key === '@id' && (node['@id'].startsWith('_:') || path.size === 1)) continue;
    if (!Array.isArray(values)) {
      out[key] = values;
      continue;
    }
    out[key] = values.map((value: Record<string, unknown>) => {
      const id = value['@id'];
      if (typeof id !== 'string' || !nodes.has(id) || path.has(id) || Object.keys(value).length !== 1) return value;
      return embed(nodes.get(id)!, nodes, new Set([...path, id]));
    });
  }
  return out;
}

const compactor = new MemoCompactor(D23B_CONTEXT_URL, documentLoader);

/**
 * Quads of one graph → the JSON of its root node, compacted against the D23B (+ service) context.
 * Blank nodes are embedded where they are used; the node's own `id` and `@context` are left out.
 * Framing is on the read path of every view, so it runs on a node map built here and the memoised
 * compactor (a fraction of jsonld.js's cost: bench/results/2026-12-07-comment-figures.md); what those do not mirror (RDF lists,
 * language tags, cycles) goes through jsonld.js, which gives the same output for everything else.
 */
export async function frameRoot(quads: readonly Quad[], rootIri: string): Promise<Record<string, unknown>> {
  return (await frameNodes(expandedNodes(quads), rootIri)) ?? frameRootWithJsonLd(quads, rootIri);
}

/**
 * frameRoot of a graph given as N-Triples text, the cheapest form to read out of the store. Text in
 * another layout (an external store's Turtle-style N-Triples) is parsed by n3 and framed by jsonld.js.
 */
export async function frameNTriples(text: string, rootIri: string): Promise<Record<string, unknown>> {
  return (
    (await frameNodes(expandedNodesFromNTriples(text), rootIri)) ??
    frameRootWithJsonLd(new Parser({ blankNodePrefix: '' }).parse(text), rootIri)
  );
}

async function frameNodes(nodes: Map<string, ExpandedNode> | undefined, rootIri: string): Promise<Record<string, unknown> | undefined> {
  if (!nodes) return undefined;
  const root = nodes.get(rootIri);
  if (!root) return {};
  try {
    return asSent(await compactor.compact(embed(root, nodes, new Set([rootIri]))));
  } catch (error) {
    if (error instanceof NotMemoisable) return undefined;
    throw error;
  }
}

/** frameRoot by jsonld.fromRDF and jsonld.compact: the reference the fast path is held to. */
export async function frameRootWithJsonLd(quads: readonly Quad[], rootIri: string): Promise<Record<string, unknown>> {
  const expanded = (await jsonld.fromRDF(quads.map(toJsonLdQuad), { useNativeTypes: true } as never)) as unknown as NodeObject[];
  const nodes = new Map(expanded.map((n) => [n['@id'], n]));
  const root = nodes.get(rootIri);
  if (!root) return {};
  const tree = embed(root, nodes, new Set([rootIri]));
  // The context by URL, not as the object: jsonld.js then takes its processed form from the cache the
  // loader's 'static' tag allows, instead of cloning and re-processing the whole D23B context on every call.
  const compacted = (await jsonld.compact(
    tree,
    D23B_CONTEXT_URL as never,
    {
      documentLoader: documentLoader as never,
      compactArrays: true,
    } as never,
  )) as unknown as Record<string, unknown>;
  delete compacted['@context'];
  return asSent(compacted);
}

/** A compacted root in the forms and order sent (docs/decisions.md, "Read view: fields as sent"); its
 * `id` is the one sent beside the globalId, if any, never the node's own. */
function asSent(compacted: Record<string, unknown>): Record<string, unknown> {
  plainStrings(compacted);
  restoreSentForms(compacted);
  restoreArrays(compacted);
  restoreValueOrder(compacted);
  restoreScalars(compacted);
  delete compacted.id;
  const sentId = takeSentId(compacted);
  if (sentId !== undefined) compacted.id = sentId;
  return compacted;
}

/**
 * D23B coerces most terms to xsd:string, so values keep that type through compaction to match their
 * terms; under a compact IRI without a term (e.g. unece:QuantityTypeValue) they stay value objects.
 * A plain string is what was sent, so such value objects are unwrapped.
 */
function plainStrings(node: unknown): unknown {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) node[i] = plainStrings(node[i]);
    return node;
  }
  if (node === null || typeof node !== 'object') return node;
  const object = node as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length === 2 && '@value' in object && (object.type === 'xsd:string' || object['@type'] === 'xsd:string'))
    return object['@value'];
  for (const key of keys) object[key] = plainStrings(object[key]);
  return object;
}
