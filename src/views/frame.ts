import jsonld from 'jsonld';
import type { Quad } from '@rdfjs/types';
import { d23bContext, documentLoader } from '../rdf/document-loader.js';

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

type NodeObject = Record<string, unknown> & { '@id': string };

function toJsonLdQuad(q: Quad): unknown {
  const term = (t: Quad['subject'] | Quad['object']) =>
    t.termType === 'Literal'
      ? { termType: 'Literal', value: t.value, datatype: { termType: 'NamedNode', value: t.datatype.value }, language: t.language }
      : { termType: t.termType, value: t.termType === 'BlankNode' && !t.value.startsWith('_:') ? `_:${t.value}` : t.value };
  return { subject: term(q.subject), predicate: { termType: 'NamedNode', value: q.predicate.value }, object: term(q.object), graph: { termType: 'DefaultGraph', value: '' } };
}

function embed(node: NodeObject, nodes: Map<string, NodeObject>, path: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, values] of Object.entries(node)) {
    if (key === '@id' && node['@id'].startsWith('_:')) continue;
    if (!Array.isArray(values)) {
      out[key] = values;
      continue;
    }
    out[key] = values.map((value: Record<string, unknown>) => {
      // jsonld.js with useNativeTypes types plain strings as xsd:string; a plain string is what was sent.
      if (value['@type'] === XSD_STRING && '@value' in value) return { '@value': value['@value'] };
      const id = value['@id'];
      if (typeof id === 'string' && id.startsWith('_:') && nodes.has(id) && !path.has(id)) {
        return embed(nodes.get(id)!, nodes, new Set([...path, id]));
      }
      return value;
    });
  }
  return out;
}

/**
 * Quads of one graph → the JSON of its root node, compacted against the D23B (+ service) context.
 * Blank nodes are embedded where they are used; the node's own `id` and `@context` are left out.
 */
export async function frameRoot(quads: readonly Quad[], rootIri: string): Promise<Record<string, unknown>> {
  const expanded = (await jsonld.fromRDF(quads.map(toJsonLdQuad) as never, { useNativeTypes: true } as never)) as unknown as NodeObject[];
  const nodes = new Map(expanded.map((n) => [n['@id'], n]));
  const root = nodes.get(rootIri);
  if (!root) return {};
  const tree = embed(root, nodes, new Set([rootIri]));
  const compacted = (await jsonld.compact(tree as never, d23bContext() as never, {
    documentLoader: documentLoader as never,
    compactArrays: true,
  } as never)) as unknown as Record<string, unknown>;
  delete compacted['@context'];
  delete compacted.id;
  return compacted;
}
