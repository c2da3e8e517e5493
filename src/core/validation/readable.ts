import type { Term } from '@rdfjs/types';
import { d23bContext } from '../rdf/document-loader.js';
import { AS, RDF_TYPE, SVC, UNECE } from '../rdf/namespaces.js';

export const DSH = 'https://w3id.org/supply-chain-dataspace/shapes#';
const SH = 'http://www.w3.org/ns/shacl#';

const PREFIXES: [string, string][] = [
  ['unece', UNECE],
  ['svc', SVC],
  ['as', AS],
  ['dsh', DSH],
  ['sh', SH],
  ['xsd', 'http://www.w3.org/2001/XMLSchema#'],
  ['rdf', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#'],
];

type ContextObject = Record<string, unknown>;

/** IRI → the term a payload writes for it (`identifier`, `consignor`, `TradeParty`), from the bundled
 * D23B + service contexts, so that paths read like the JSON that was sent. */
function buildTermNames(): Map<string, string> {
  const names = new Map<string, string>();
  const raw = d23bContext();
  const contexts = (Array.isArray(raw) ? raw : [raw]) as ContextObject[];
  const prefixes = new Map<string, string>();
  for (const context of contexts) {
    for (const [term, definition] of Object.entries(context)) {
      if (typeof definition === 'string' && /[/#]$/.test(definition)) prefixes.set(term, definition);
    }
  }
  const expand = (iri: string): string => {
    const colon = iri.indexOf(':');
    const prefix = colon > 0 ? prefixes.get(iri.slice(0, colon)) : undefined;
    return prefix ? prefix + iri.slice(colon + 1) : iri;
  };
  for (const context of contexts) {
    for (const [term, definition] of Object.entries(context)) {
      if (term.startsWith('@') || term.includes(':')) continue;
      const id = typeof definition === 'string' ? definition : (definition as { '@id'?: unknown } | null)?.['@id'];
      if (typeof id !== 'string' || id.startsWith('@')) continue;
      const iri = expand(id);
      // A term named like the IRI's own local name is the one payloads write; keep the first such.
      if (!names.has(iri) || iri.endsWith(`/${term}`) || iri.endsWith(`#${term}`)) names.set(iri, term);
    }
  }
  return names;
}

let termNames: Map<string, string> | undefined;

/** `https://vocabulary.uncefact.org/identifier` → `identifier`; code IRIs → `unece:CountryId#GB`. */
export function compactIri(iri: string): string {
  if (iri === RDF_TYPE) return 'type';
  termNames ??= buildTermNames();
  const term = termNames.get(iri);
  if (term !== undefined) return term;
  if (iri.startsWith(AS) && /^[A-Za-z]+$/.test(iri.slice(AS.length))) return iri.slice(AS.length);
  for (const [prefix, namespace] of PREFIXES) {
    if (iri.startsWith(namespace) && iri.length > namespace.length) return `${prefix}:${iri.slice(namespace.length)}`;
  }
  return iri;
}

/** A term as a person reads it in a report: literals by their text, IRIs compacted. */
export function readableTerm(term: Term): string {
  switch (term.termType) {
    case 'Literal':
      return term.value;
    case 'NamedNode':
      return compactIri(term.value);
    case 'BlankNode':
      return '(object)';
    default:
      return term.value;
  }
}

export function localName(iri: string): string {
  return iri.replace(/^.*[#/]/, '');
}
