/** Waits until `probe`'s answer is `done`, asking every 20 ms; fails naming `what` and the last answer. */
export async function until<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms; last ${JSON.stringify(value)}`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

/** Waits until `condition` holds, looking every `everyMs`. */
export async function untilTrue(condition: () => boolean, timeoutMs: number, everyMs = 5): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((ok) => setTimeout(ok, everyMs));
  }
}
