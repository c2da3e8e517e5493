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
