import { codeLists, type CodeList } from '../views/code-lists.js';

const UNECE = 'https://vocabulary.uncefact.org/';

/**
 * The code-list fields of the interface and the list each takes its codes from. Every one accepts a
 * code in three forms: `unece:<List>#<code>`, the expanded IRI `https://vocabulary.uncefact.org/<List>#<code>`
 * and the bare `<code>`. Each is stored in one form: the compact string, which the D23B context makes
 * a string for `transportModeCode` and `documentTypeCode` (typed xsd:string there) and the IRI for the
 * others (typed @vocab). Unit codes are not here: they are literal values whose bare Rec 20 code is
 * itself a form the shapes admit (shapes/codelists.ttl), stored as sent.
 */
const CODE_FIELDS: Readonly<Record<string, { list: CodeList; what: string }>> = {
  transportModeCode: { list: codeLists.transportMode, what: 'UNECE Rec 19 transport mode code' },
  documentTypeCode: { list: codeLists.document, what: 'UNCL 1001 document code' },
  transportMeansTypeCode: { list: codeLists.transportMeansType, what: 'UNECE Rec 28 transport means type code' },
  transportEquipmentCategoryCode: { list: codeLists.transportEquipmentCategory, what: 'UNECE transport equipment category code' },
  packageTypeCode: { list: codeLists.packageType, what: 'UNECE Rec 21 package type code' },
  countryId: { list: codeLists.country, what: 'ISO 3166-1 code' },
  tradeAddressCountryId: { list: codeLists.country, what: 'ISO 3166-1 code' },
};

/** A code-list value rewritten to its stored form, and whether it was sent bare (told as a warning). */
export interface CodeForm {
  value: string;
  bare: boolean;
  message?: string;
}

/**
 * The stored form of a code sent under `key` (any spelling of the term: `transportModeCode`,
 * `unece:transportModeCode`), or undefined when the key is no code field or the value is no code of
 * its list in any accepted form (the shapes then refuse it, quoting it).
 */
export function codeForm(key: string, value: string): CodeForm | undefined {
  const field = CODE_FIELDS[key.slice(Math.max(key.lastIndexOf(':'), key.lastIndexOf('/')) + 1)];
  if (!field) return undefined;
  const { list } = field;
  const compact = (code: string) => `unece:${list.name}#${code}`;
  if (value.startsWith(`${UNECE}${list.name}#`)) {
    const code = value.slice(value.indexOf('#') + 1);
    return list.has(code) ? { value: compact(code), bare: false } : undefined;
  }
  if (!value.includes('#') && !value.includes(':') && list.has(value)) {
    return {
      value: compact(value),
      bare: true,
      message: `${key} ${JSON.stringify(value)} is a bare ${field.what}; stored as ${compact(value)}, the form to send`,
    };
  }
  return undefined;
}
