import { BadRequest, PayloadTooLarge } from '../http/errors.js';

export interface ShapeLimits {
  maxDepth: number;
  maxValues: number;
}

export const DEFAULT_LIMITS: ShapeLimits = { maxDepth: 32, maxValues: 20_000 };

/**
 * Bounds the JSON before any JSON-LD work: expansion recurses per level and allocates per value, so a
 * deeply nested or huge body must be refused cheaply rather than exhaust the stack or the event loop.
 */
export function checkJsonShape(body: unknown, limits: ShapeLimits = DEFAULT_LIMITS): void {
  let values = 0;
  const stack: [unknown, number][] = [[body, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++values > limits.maxValues) throw new PayloadTooLarge(`The activity has more than ${limits.maxValues} JSON values`);
    if (value === null || typeof value !== 'object') continue;
    if (depth > limits.maxDepth) throw new BadRequest(`The activity is nested deeper than ${limits.maxDepth} levels`);
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push([child, depth + 1]);
  }
}
