import type { Term } from '@rdfjs/types';
import { XSD } from './namespaces.js';

// Characters that may not appear inside an IRI reference in N-Triples/SPARQL.
const ILLEGAL_IRI = /[\u0000-\u0020<>"{}|^`\\]/;
const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:/;

export class InvalidTermError extends Error {
  override readonly name = 'InvalidTermError';
}

export function isSafeIri(value: string): boolean {
  return ABSOLUTE_IRI.test(value) && !ILLEGAL_IRI.test(value);
}

export function iriToString(iri: string): string {
  if (!isSafeIri(iri)) throw new InvalidTermError(`Not an absolute IRI usable in a query: ${JSON.stringify(iri)}`);
  return `<${iri}>`;
}

function escapeLiteral(value: string): string {
  return value.replace(/[\\"\n\r\t\b\f]/g, (c) => {
    switch (c) {
      case '\\':
        return '\\\\';
      case '"':
        return '\\"';
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\t':
        return '\\t';
      case '\b':
        return '\\b';
      default:
        return '\\f';
    }
  });
}

export function literalToString(value: string, datatype?: string, language?: string): string {
  const lexical = `"${escapeLiteral(value)}"`;
  if (language) {
    if (!/^[A-Za-z]+(-[A-Za-z0-9]+)*$/.test(language)) throw new InvalidTermError(`Bad language tag ${language}`);
    return `${lexical}@${language}`;
  }
  if (!datatype || datatype === `${XSD}string`) return lexical;
  return `${lexical}^^${iriToString(datatype)}`;
}

/** Serialises an RDF term as one N-Triples/SPARQL token; nothing it returns can break out of the term. */
export function termToString(term: Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return iriToString(term.value);
    case 'BlankNode':
      if (!/^[A-Za-z0-9_-]+$/.test(term.value)) throw new InvalidTermError(`Bad blank node label ${term.value}`);
      return `_:${term.value}`;
    case 'Literal':
      return literalToString(term.value, term.datatype?.value, term.language);
    default:
      throw new InvalidTermError(`Cannot serialise a ${term.termType} term`);
  }
}
