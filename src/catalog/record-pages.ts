/**
 * Where the ranges of a paged read start, and how many sequence numbers each covers: at most `rowCap`
 * (one row a number at most), or all of (0, maxSeq] in one range on a store without a cap.
 */
export function seqRanges(maxSeq: number, rowCap: number | undefined): { starts: number[]; size: number } {
  const size = rowCap ?? Math.max(1, maxSeq);
  return { starts: Array.from({ length: Math.ceil(maxSeq / size) }, (_, i) => i * size), size };
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
