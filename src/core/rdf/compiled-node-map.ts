import type { Quad } from '@rdfjs/types';
import { RDF_TYPE, XSD } from './namespaces.js';

/*
 * The last two of jsonld.js's three steps for the compiled subset (src/core/rdf/compiled-to-rdf.ts walks
 * the payload into Nodes): the node map, and the quads in jsonld.js's order with its blank node labels.
 */

/** A value, as jsonld.js expands it: an explicit datatype is kept apart from none (they dedupe differently). */
export interface Value {
  /** A boolean or integer stays one: jsonld.js dedupes `true` and "true" apart, and types them itself. */
  value: string | boolean | number;
  type?: string;
}

export interface Node {
  id?: string;
  types: string[];
  properties: Map<string, (Node | Value)[]>;
}

interface MapNode {
  types: string[];
  properties: Map<string, MapValue[]>;
}

/** An object in the node map: a node's name or a value. */
type MapValue = { id: string } | Value;

/** jsonld.js's createNodeMap for the subset: subjects by name, blank nodes named _:b0, _:b1, … in its order. */
export function nodeMap(root: Node): Map<string, MapNode> {
  const subjects = new Map<string, MapNode>();
  let counter = 0;
  const issue = () => `_:b${counter++}`;
  const add = (node: Node, name: string) => {
    let subject = subjects.get(name);
    if (!subject) subjects.set(name, (subject = { types: [], properties: new Map() }));
    for (const type of node.types) if (!subject.types.includes(type)) subject.types.push(type);
    for (const property of [...node.properties.keys()].sort()) {
      let list = subject.properties.get(property);
      if (!list) subject.properties.set(property, (list = []));
      for (const item of node.properties.get(property)!) {
        if ('value' in item) {
          if (!list.some((v) => 'value' in v && v.value === item.value && v.type === item.type)) list.push(item);
          continue;
        }
        const id = item.id ?? issue();
        if (!list.some((v) => 'id' in v && v.id === id)) list.push({ id });
        add(item, id);
      }
    }
  };
  add(root, root.id ?? issue());
  return subjects;
}

/** jsonld.js's _objectToRDF for the values in the subset. */
const lexical = (value: string | boolean | number): string => (typeof value === 'number' ? value.toFixed(0) : String(value));
const DEFAULT_DATATYPE = { string: `${XSD}string`, boolean: `${XSD}boolean`, number: `${XSD}integer` } as const;

const DEFAULT_GRAPH = { termType: 'DefaultGraph', value: '' };

function term(id: string): { termType: 'NamedNode' | 'BlankNode'; value: string } {
  return id.startsWith('_:') ? { termType: 'BlankNode', value: id.slice(2) } : { termType: 'NamedNode', value: id };
}

/** jsonld.js's toRDF of a default-graph node map: subjects sorted, rdf:type first, then properties sorted. */
export function toRdf(subjects: Map<string, MapNode>): Quad[] {
  const quads: Record<string, unknown>[] = [];
  for (const id of [...subjects.keys()].sort()) {
    const subject = subjects.get(id)!;
    for (const type of subject.types) {
      quads.push({
        subject: term(id),
        predicate: { termType: 'NamedNode', value: RDF_TYPE },
        object: term(type),
        graph: { ...DEFAULT_GRAPH },
      });
    }
    for (const property of [...subject.properties.keys()].sort()) {
      for (const item of subject.properties.get(property)!) {
        const object =
          'id' in item
            ? term(item.id)
            : {
                termType: 'Literal',
                value: lexical(item.value),
                datatype: { termType: 'NamedNode', value: item.type ?? DEFAULT_DATATYPE[typeof item.value as 'string'] },
              };
        quads.push({ subject: term(id), predicate: { termType: 'NamedNode', value: property }, object, graph: { ...DEFAULT_GRAPH } });
      }
    }
  }
  return quads as unknown as Quad[];
}
