import { Unprocessable } from '../errors.js';
import type { ValidationResult } from '../validation/types.js';
import { isObject, type JsonObject } from '../util/json.js';
import { stringValue } from './envelope.js';

/**
 * Spec 4.2 matches the items of `includedConsignment` by `identifier`: an Update's item takes the
 * content of the stored item with its identifier. Two items with one identifier cannot both be that
 * item, so a Create or Update sending an identifier twice is refused, naming each repeat, rather than
 * stored as two items that every later Update would match at random.
 */
export function duplicateItemIdentifiers(object: JsonObject): ValidationResult[] {
  const items = object.includedConsignment;
  if (!Array.isArray(items)) return [];
  const first = new Map<string, number>();
  const results: ValidationResult[] = [];
  items.forEach((item, i) => {
    const identifier = isObject(item) ? stringValue(item.identifier) : undefined;
    if (identifier === undefined) return;
    const earlier = first.get(identifier);
    if (earlier === undefined) {
      first.set(identifier, i);
      return;
    }
    results.push({
      focusNode: `includedConsignment[${i}]`,
      path: `includedConsignment[${i}].identifier`,
      severity: 'Violation',
      sourceShape: 'dsh:IncludedConsignmentIdentifiers',
      value: identifier,
      message: `includedConsignment[${i}] repeats identifier ${JSON.stringify(identifier)} of includedConsignment[${earlier}]; items are matched by identifier, so each must be unique`,
    });
  });
  return results;
}

/** The inbox's refusal of repeated item identifiers: 422 with the results. */
export function checkItemIdentifiers(object: JsonObject): void {
  const results = duplicateItemIdentifiers(object);
  if (results.length > 0) throw new Unprocessable(results[0]!.message, { results });
}
