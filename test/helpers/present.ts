import { expect } from 'chai';
import type { Tuple } from '../../src/core/util/tuple.js';

/**
 * Reading what a test expects to be there: each fails the test with a message saying what was
 * missing, where an index or a lookup would otherwise give `undefined` (noUncheckedIndexedAccess).
 */

/** `items[index]`, a negative index counting from the end. */
export function nth<T>(items: readonly T[], index: number): T {
  const item = items.at(index);
  if (item === undefined) return expect.fail(`expected an item at ${index}, the list holds ${items.length}`);
  return item;
}

/** The first `count` items as a tuple (`const [a, b] = firstOf(list, 2)`), failing when the list holds fewer. */
export function firstOf<T, N extends number>(items: readonly T[], count: N): Tuple<T, N> {
  if (items.length < count) return expect.fail(`expected at least ${count} items, the list holds ${items.length}`);
  return items.slice(0, count) as Tuple<T, N>;
}

/** The one item of a list that should hold exactly one; `what` names the list in the failure. */
export function only<T>(items: readonly T[], what = 'a list of one'): T {
  expect(items, what).to.have.length(1);
  return nth(items, 0);
}

/** A value that should be there (not undefined or null); `what` names it in the failure. */
export function present<T>(value: T | undefined | null, what = 'a value'): T {
  if (value === undefined || value === null) return expect.fail(`expected ${what}, got ${String(value)}`);
  return value;
}

/** The first group of `pattern`'s match in `text` (a token in a page, a link in a header), failing when it does not match. */
export function captured(pattern: RegExp, text: string): string {
  const group = pattern.exec(text)?.[1];
  if (group === undefined) return expect.fail(`expected ${pattern} to match ${JSON.stringify(text.slice(0, 300))}`);
  return group;
}
