import type { LogWarning } from './log-entry.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A bare ISO 3166-1 alpha-2 code, the form the pilots' item-level payloads send. */
const BARE_COUNTRY = /^[A-Z]{2}$/;

export interface NormalisedForms {
  /** The payload with every accepted non-canonical form rewritten to the canonical one. */
  json: unknown;
  warnings: LogWarning[];
}

/**
 * Spec 2.4 gives `originCountry.countryId` no form (only `tradeAddressCountryId` is fixed as
 * unece:CountryId#<code>). Participants send both `unece:CountryId#PL` and a bare `PL`; both are
 * accepted and stored as the one RDF form, the IRI https://vocabulary.uncefact.org/CountryId#PL,
 * and the bare form is reported as a warning. Fields whose form the spec fixes are not touched, so
 * the shapes keep refusing a bare tradeAddressCountryId. Returns a copy; the input is not changed.
 */
export function normaliseForms(input: unknown): NormalisedForms {
  const warnings: LogWarning[] = [];
  const walk = (value: unknown, path: string): unknown => {
    if (Array.isArray(value)) return value.map((v, i) => walk(v, `${path}[${i}]`));
    if (!isObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const at = path === '' ? key : `${path}.${key}`;
      if (key === 'countryId' && typeof v === 'string' && BARE_COUNTRY.test(v)) {
        out[key] = `unece:CountryId#${v}`;
        warnings.push({ path: at, value: v, message: `countryId ${JSON.stringify(v)} is a bare ISO 3166-1 code; stored as unece:CountryId#${v}, the form to send` });
      } else {
        out[key] = key === '@context' ? v : walk(v, at);
      }
    }
    return out;
  };
  const json = walk(input, '');
  return { json, warnings };
}
