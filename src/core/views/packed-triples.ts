import { DataFactory } from 'n3';
import type { Quad, Quad_Object, Quad_Subject } from '@rdfjs/types';
import { XSD } from '../rdf/namespaces.js';
import { unskolemised } from '../rdf/skolem.js';
import { hasLength } from '../util/tuple.js';

const XSD_STRING = `${XSD}string`;

/** An object as views/graphs-packed.rq writes it: `<IRI`, or `"value"@lang` / `"value"^datatype`, the value percent-encoded. */
function object(token: string): Quad_Object | undefined {
  if (token.startsWith('<')) return token.length > 1 ? (unskolemised(DataFactory.namedNode(token.slice(1))) as Quad_Object) : undefined;
  const close = token.lastIndexOf('"');
  if (!token.startsWith('"') || close < 1) return undefined;
  const value = decodeURIComponent(token.slice(1, close));
  const tail = token.slice(close + 1);
  if (tail.startsWith('@') && tail.length > 1) return DataFactory.literal(value, tail.slice(1));
  if (!tail.startsWith('^') || tail.length < 2) return undefined;
  return tail === `^${XSD_STRING}` ? DataFactory.literal(value) : DataFactory.literal(value, DataFactory.namedNode(tail.slice(1)));
}

/**
 * The triples of one graph from its packed text (views/graphs-packed.rq), or undefined when a line is
 * not a well-formed triple: one the server could not write ("!"), or a string cut short.
 * The blank nodes the node wrote to the server as skolem IRIs come back as blank nodes, as they do
 * from the store's other answers.
 */
export function unpackTriples(text: string): Quad[] | undefined {
  const lines = text === '' ? [] : text.split('\n');
  const triples: Quad[] = [];
  try {
    for (const line of lines) {
      const tokens = line.split(' ');
      if (!hasLength(tokens, 4)) return undefined;
      const [subject, predicate, objectText, dot] = tokens;
      if (dot !== '.' || subject === '' || predicate === '') return undefined;
      const o = object(objectText);
      if (o === undefined) return undefined;
      triples.push(DataFactory.quad(unskolemised(DataFactory.namedNode(subject)) as Quad_Subject, DataFactory.namedNode(predicate), o));
    }
  } catch {
    // A malformed percent-encoding (decodeURIComponent's URIError).
    return undefined;
  }
  return triples;
}
