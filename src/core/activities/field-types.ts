import { Unprocessable } from '../errors.js';
import { isObject, walkEntries } from '../util/json.js';

/** Spec 2.3, 2.4, 2.7: these are strings (or JSON-LD value objects holding a string) wherever they appear. */
export const STRING_FIELDS = new Set(['identifier', 'globalId']);

/**
 * JSON-LD turns `identifier: 42` into an xsd:integer literal, which would then match and be stored as
 * if it were the reference "42"; a number or boolean is refused instead, naming the field.
 */
export function checkStringFields(json: unknown): void {
  walkEntries(json, (key, value, at) => {
    if (STRING_FIELDS.has(key)) check(value, at);
    return key !== '@context';
  });
}

function check(value: unknown, at: string): void {
  for (const [item, where] of Array.isArray(value) ? value.map((v, i) => [v, `${at}[${i}]`] as const) : [[value, at] as const]) {
    const inner = isObject(item) && '@value' in item ? item['@value'] : item;
    if (typeof inner === 'number' || typeof inner === 'boolean') {
      throw new Unprocessable(
        `${where} is ${JSON.stringify(inner)}, a JSON ${typeof inner}; it must be a string or a JSON-LD value object holding a string`,
        {
          field: where,
          value: inner,
          results: [
            {
              focusNode: where.replace(/\.[^.]*$/, '') || '(payload)',
              path: where,
              message: `${where.split('.').pop()} must be a string`,
              severity: 'Violation',
              sourceShape: 'StringField',
              value: JSON.stringify(inner),
            },
          ],
        },
      );
    }
  }
}
