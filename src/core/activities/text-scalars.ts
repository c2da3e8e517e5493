import { d23bContext } from '../rdf/document-loader.js';
import { isObject } from '../util/json.js';
import { STRING_FIELDS } from './field-types.js';

/**
 * D23B types most terms `xsd:string` (`sequenceNumeric`, `information`, `name`…), and JSON-LD turns a
 * JSON number or boolean sent under one into text of that type: `30` became "30" (which the view then
 * gave back as a string) and `30.5` became "3.05E1". Such a value is stored as the text JSON writes it
 * ("30.5"), an xsd:string as the term says, what a SPARQL user of the vocabulary reads; the values sent
 * as numbers or booleans are kept beside it in one `svc:sentScalars` string per field, `["key",
 * [values…]]` in JSON, and the view gives them back as sent (src/core/views/sent-scalars.ts).
 */
const TEXT_TERMS = textTerms();

function textTerms(): Set<string> {
  const terms = new Set<string>();
  const layers = d23bContext() as Record<string, unknown> | Record<string, unknown>[];
  for (const layer of Array.isArray(layers) ? layers : [layers]) {
    for (const [term, definition] of Object.entries(layer))
      if (isObject(definition) && definition['@type'] === 'xsd:string') terms.add(term);
  }
  return terms;
}

const isScalar = (value: unknown): value is number | boolean => typeof value === 'number' || typeof value === 'boolean';

/**
 * A field's value with the numbers and booleans under an xsd:string term written as text, and the
 * marker text that names them, or undefined when there are none (another term, or text sent).
 */
export function asText(key: string, value: unknown): { value: unknown; marker: string } | undefined {
  // An identifier or globalId must be sent as text: left as sent, for field-types.ts to refuse.
  if (!TEXT_TERMS.has(key) || STRING_FIELDS.has(key)) return undefined;
  const items = Array.isArray(value) ? value : [value];
  const scalars = items.filter(isScalar);
  if (scalars.length === 0) return undefined;
  const text = (item: unknown) => (isScalar(item) ? String(item) : item);
  return { value: Array.isArray(value) ? value.map(text) : text(value), marker: JSON.stringify([key, scalars]) };
}
