import { d23bContext } from '../rdf/document-loader.js';
import { isObject } from '../util/json.js';

/**
 * Compaction picks a term only for a value that matches the term's coercion: D23B types most terms
 * `xsd:string`, `xsd:boolean` or `@id`, so a value sent in another form (a GS1 value object under
 * `identifier`, language-tagged text under `name`, `true` under `driverAccompaniedIndicator`, a number
 * under an `@id` term) comes out under the compact IRI (`unece:identifier`) where no JSON client looks.
 * The read view gives it back under the term it was sent with, in the form it was sent in
 * (docs/decisions.md, "Read view: fields as sent").
 */
type Json = Record<string, unknown>;

/** Compact IRI (`unece:name`, `svc:UNLocode`) → the term that names it (`name`, `UNLocode`). */
const TERMS = termsByCompactIri();

function termsByCompactIri(): Map<string, string> {
  const terms = new Map<string, string>();
  const layers = d23bContext() as Json | Json[];
  for (const layer of Array.isArray(layers) ? layers : [layers]) {
    for (const [term, definition] of Object.entries(layer)) {
      const id = isObject(definition) ? definition['@id'] : undefined;
      if (typeof id !== 'string' || term.includes(':') || term.startsWith('@')) continue;
      // A term whose name is the IRI's local name wins over any alias of the same IRI.
      if (!terms.has(id) || id.endsWith(`:${term}`)) terms.set(id, term);
    }
  }
  return terms;
}

/** A value object as sent: its datatype under `@type`, not the context's `type` alias. */
function valueForm(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(valueForm);
  if (!isObject(value)) return value;
  if ('@value' in value) {
    if (!('type' in value)) return value;
    const { type, ...rest } = value;
    return { '@type': type, ...rest };
  }
  restoreSentForms(value);
  return value;
}

/** The key a field is given under in the view: its term where the key is a compact IRI that has one. */
export const termOf = (key: string): string => TERMS.get(key) ?? key;

const values = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

/** Rewrites a compacted node tree in place: every field under its term, value objects as sent. */
export function restoreSentForms(node: Json): void {
  for (const key of Object.keys(node)) {
    if (key === '@context') continue;
    const value = valueForm(node[key]);
    const term = TERMS.get(key);
    if (term === undefined) {
      node[key] = value;
      continue;
    }
    delete node[key];
    // The same field may hold values of both forms (plain text and language-tagged text): one array.
    node[term] = term in node ? [...values(node[term]), ...values(value)] : value;
  }
}
