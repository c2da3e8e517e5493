/**
 * Where the ranges of a paged read start, and how many sequence numbers each covers: at most `rowCap`
 * (one row a number at most) up to the highest number stored, which `highest` reads; or, on a store
 * without a cap, one range that holds every number, which needs no highest (on the embedded store a
 * MAX over the records is one more scan of them).
 */
export async function seqRanges(rowCap: number | undefined, highest: () => Promise<number>): Promise<{ starts: number[]; size: number }> {
  if (rowCap === undefined) return { starts: [0], size: Number.MAX_SAFE_INTEGER };
  const maxSeq = await highest();
  return { starts: Array.from({ length: Math.ceil(maxSeq / rowCap) }, (_, i) => i * rowCap), size: rowCap };
}

/**
 * Reads pages with at most `inFlight` requests open, handing each answer to `take` in page order, so
 * the caller works on one answer while the server prepares the next.
 */
export async function pagesInOrder<T>(starts: readonly number[], read: (start: number) => Promise<T>, inFlight: number, take: (page: T) => void): Promise<void> {
  const pending: Promise<T>[] = [];
  let next = 0;
  const ask = () => {
    const page = read(starts[next++]);
    // A later page that fails while an earlier one is awaited must not be an unhandled rejection.
    page.catch(() => undefined);
    pending.push(page);
  };
  while (next < starts.length && pending.length < inFlight) ask();
  while (pending.length > 0) {
    const page = await pending.shift()!;
    if (next < starts.length) ask();
    take(page);
  }
}
