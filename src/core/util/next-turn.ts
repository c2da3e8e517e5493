/**
 * Resolves on a later turn of the event loop, after the I/O waiting now (a request, a probe). The
 * embedded store answers a query synchronously, so a long chain of awaited queries (the loads at
 * start) would otherwise run as one block that no request can come between.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
