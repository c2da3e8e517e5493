import { HttpError, ServiceUnavailable } from '../errors.js';

/** How long a read waits for the load before it is answered 503: under a reverse proxy's usual 30 s. */
const LOAD_WAIT_MS = 20_000;

/**
 * Waits for the read index's load at most `waitMs`: past that, or when the load fails, a read is
 * answered 503 with a Retry-After (the load goes on, or is tried again, for the reads after).
 */
export async function waitForLoad(loading: Promise<void>, waitMs = LOAD_WAIT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), waitMs);
  });
  try {
    if ((await Promise.race([loading.then(() => 'loaded' as const), late])) === 'late') {
      throw new ServiceUnavailable(`The node is still reading its consignment index (over ${waitMs} ms so far); retry shortly`, 5);
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new ServiceUnavailable(`The node could not read its consignment index (${(error as Error).message}); retry shortly`, 5);
  } finally {
    clearTimeout(timer);
  }
}
