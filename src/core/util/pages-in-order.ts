/**
 * Reads pages with at most `inFlight` requests open, handing each answer to `take` in page order, so
 * the caller works on one answer while the next are read (a server's pages, an image's pieces); a
 * `take` that returns a promise is awaited before the next page is taken.
 * `starts` says where each page starts: a number, or whatever `read` needs to find it.
 */
export async function pagesInOrder<S, T>(
  starts: readonly S[],
  read: (start: S) => Promise<T>,
  inFlight: number,
  take: (page: T) => void | Promise<void>,
): Promise<void> {
  const pending: Promise<T>[] = [];
  let next = 0;
  const ask = () => {
    // Called only while `next < starts.length`.
    const page = read(starts[next++]!);
    // A later page that fails while an earlier one is awaited must not be an unhandled rejection.
    page.catch(() => undefined);
    pending.push(page);
  };
  while (next < starts.length && pending.length < inFlight) ask();
  while (pending.length > 0) {
    const page = await pending.shift()!;
    if (next < starts.length) ask();
    await take(page);
  }
}
