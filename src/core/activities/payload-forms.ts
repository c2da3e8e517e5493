import type { LogWarning } from '../catalog/log-entry.js';
import { isObject } from '../util/json.js';
import { canonicalDateTime } from '../rdf/date-times.js';
import { codeForm } from './code-forms.js';

export interface NormalisedForms {
  /** The payload with every accepted non-canonical form rewritten to the canonical one. */
  json: unknown;
  warnings: LogWarning[];
}

/**
 * The payload in the forms the node stores, before anything reads it (the envelope, the reader, the
 * idempotency key). Returns a copy; the input is not changed.
 *
 * - JSON `null` is absent, as JSON-LD has it: a key whose value is null is dropped, so are null array
 *   items and value objects whose `@value` is null (`"includedConsignment": null` is an omitted field,
 *   not an empty list). `@context: null` stays: in JSON-LD it resets the context, which the context
 *   rules refuse.
 * - Date-times (core/rdf/date-times.ts) are rewritten to their canonical form.
 * - Codes of a code list (code-forms.ts) in any of the three accepted forms (`unece:<List>#<code>`,
 *   the expanded IRI, the bare code) are rewritten to the one stored form; a bare code is reported as
 *   a warning naming the form to send (participants send `originCountry.countryId` as a bare `PL`).
 */
export function normaliseForms(input: unknown): NormalisedForms {
  const warnings: LogWarning[] = [];
  const walk = (value: unknown, path: string): unknown => {
    if (Array.isArray(value)) return value.filter((v) => !isNull(v)).map((v, i) => walk(v, `${path}[${i}]`));
    if (!isObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const at = path === '' ? key : `${path}.${key}`;
      if (key === '@context') out[key] = v;
      else if (isNull(v)) continue;
      else if (typeof v === 'string' && codeForm(key, v) !== undefined) {
        const form = codeForm(key, v)!;
        out[key] = form.value;
        if (form.message !== undefined) warnings.push({ path: at, value: v, message: form.message });
      } else if (isDateTimeKey(key, path === '')) {
        out[key] = dateTimes(walk(v, at));
      } else {
        out[key] = walk(v, at);
      }
    }
    return out;
  };
  const json = walk(input, '');
  return { json, warnings };
}

/** JSON-LD's null: `null` itself, or a value object whose value is null. */
function isNull(value: unknown): boolean {
  return value === null || (isObject(value) && '@value' in value && value['@value'] === null);
}

/** The date-times of a field (a string, a value object, or an array of them) in canonical form. */
function dateTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dateTimes);
  if (typeof value === 'string') return canonicalDateTime(value) ?? value;
  if (isObject(value) && typeof value['@value'] === 'string')
    return { ...value, '@value': canonicalDateTime(value['@value']) ?? value['@value'] };
  return value;
}

/** The string values at a dotted field path under the activity's object (arrays walked through). */
function stringsAt(root: unknown, path: string): string[] {
  let nodes: unknown[] = [root];
  for (const segment of path.replace(/\[\d+\]/g, '').split('.')) {
    nodes = nodes.flatMap((n) => (isObject(n) && segment in n ? [n[segment]].flat() : []));
  }
  return nodes.filter((n): n is string => typeof n === 'string');
}

interface ReadableResult {
  path?: string | null;
  message?: string;
  value?: unknown;
}

/**
 * A code sent as a bare string where the D23B context expects an IRI (`"tradeAddressCountryId": "PL"`)
 * reaches the shapes as a node without its text, which a report can only call "(object)". The refusal
 * should quote what was sent, so the strings at the result's path in the sent JSON are put back in.
 */
export function quoteSentValues(error: unknown, activity: unknown): void {
  const properties = (error as { properties?: { results?: unknown } }).properties;
  const results = properties?.results;
  if (!Array.isArray(results) || !isObject(activity)) return;
  let first: string | undefined;
  for (const result of results as ReadableResult[]) {
    if (result.value !== '(object)' || typeof result.path !== 'string') continue;
    const path = result.path.startsWith('object.') ? result.path : `object.${result.path}`;
    const sent = stringsAt(activity, path);
    if (sent.length === 0) continue;
    const quoted = sent.map((s) => JSON.stringify(s)).join(' or ');
    result.value = sent.length === 1 ? sent[0] : sent;
    if (typeof result.message === 'string') result.message = result.message.replace('(object)', quoted);
    first ??= quoted;
  }
  const e = error as { message?: string };
  if (first !== undefined && typeof e.message === 'string') e.message = e.message.replace('(object)', first);
}

/**
 * The JSON keys whose values are date-times: every D23B field named `…DateTime` (under any spelling
 * of its term: `issueDateTime`, `unece:issueDateTime`, the full IRI) and the ActivityStreams date-times
 * of spec 2.1.
 */
const ACTIVITY_DATE_TIMES = new Set(['published', 'updated', 'startTime', 'endTime']);

export function isDateTimeKey(key: string, atActivity: boolean): boolean {
  const local = key.slice(Math.max(key.lastIndexOf(':'), key.lastIndexOf('/'), key.lastIndexOf('#')) + 1);
  return local.endsWith('DateTime') || (atActivity && ACTIVITY_DATE_TIMES.has(local));
}
