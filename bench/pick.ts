/** Items of a fixed, non-empty list taken in turn or at random (requests cycling over prepared payloads). */

/** The item at `i` counted round the list (`i % length`). */
export function cycled<T>(items: readonly T[], i: number): T {
  const item = items[i % items.length];
  if (item === undefined) throw new Error('A bench cycles over an empty list');
  return item;
}

/** An item at random. */
export const pick = <T>(items: readonly T[]): T => cycled(items, Math.floor(Math.random() * items.length));
