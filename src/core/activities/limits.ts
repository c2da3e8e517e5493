import { BadRequest, PayloadTooLarge } from '../errors.js';

export interface ShapeLimits {
  maxDepth: number;
  maxValues: number;
  /** Items of one JSON array: jsonld.js checks every value it adds to a property against those already there. */
  maxArrayItems: number;
}

export const DEFAULT_LIMITS: ShapeLimits = { maxDepth: 32, maxValues: 20_000, maxArrayItems: 1_000 };

/**
 * Bounds the JSON before any JSON-LD work: expansion recurses per level and allocates per value, so a
 * deeply nested or huge body must be refused cheaply rather than exhaust the stack or the event loop.
 * jsonld.js's toRDF compares each value of a property with every value already added (a quadratic
 * duplicate check: 15,000 items took 5 s alone), so bounding each array keeps the cost linear in the
 * body's size. Answers how many JSON values the body holds (what the reader pool sorts payloads by).
 */
export function checkJsonShape(body: unknown, limits: ShapeLimits = DEFAULT_LIMITS): number {
  let values = 0;
  const stack: [unknown, number][] = [[body, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++values > limits.maxValues) throw new PayloadTooLarge(`The activity has more than ${limits.maxValues} JSON values`);
    if (value === null || typeof value !== 'object') continue;
    if (depth > limits.maxDepth) throw new BadRequest(`The activity is nested deeper than ${limits.maxDepth} levels`);
    if (Array.isArray(value) && value.length > limits.maxArrayItems)
      throw new PayloadTooLarge(`An array in the activity has ${value.length} items, more than the limit of ${limits.maxArrayItems}`);
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push([child, depth + 1]);
  }
  return values;
}
