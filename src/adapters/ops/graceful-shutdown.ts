import { once } from 'node:events';
import type { Server } from 'node:http';
import type { Logger } from '../../core/logger.js';

/** What a stop closes once the server has let its requests finish. */
export interface Closable {
  close(): Promise<void>;
}

/**
 * Graceful shutdown: stop accepting, let in-flight requests finish (their answers wait for fsync),
 * then close the node serving at that moment (a follower's or the writer's; none while starting),
 * flush the log and exit 0. Connections still busy after `timeoutMs` (DATASPACE_SHUTDOWN_TIMEOUT_MS)
 * are cut; what they had committed is already durable. Installed as soon as the port is open, so a
 * follower, which serves long before its replica holds the lease, stops as gracefully as a writer.
 */
export function gracefulShutdown(server: Server, serving: () => Closable | undefined, timeoutMs: number, logger: Logger) {
  let stopping = false;
  server.on('request', (_req, res) => {
    if (stopping) res.setHeader('connection', 'close');
  });
  return async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    const closed = once(server, 'close');
    server.close();
    server.closeIdleConnections();
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const force = setTimeout(() => {
      logger.warn('requests still running at the shutdown deadline: closing their connections', { timeoutMs });
      server.closeAllConnections();
    }, timeoutMs);
    await closed;
    clearInterval(idle);
    clearTimeout(force);
    // Closing the store gets a deadline of its own: a store or server that never answers must not keep
    // the process (and its data dir) forever; what was acknowledged is already durable.
    const hung = setTimeout(() => {
      logger.error('the store did not close within the shutdown deadline: exiting without it', { timeoutMs });
      process.exit(1);
    }, timeoutMs);
    try {
      await serving()?.close();
    } catch (error) {
      logger.error('error while closing the store', { error: (error as Error).message });
      process.exit(1);
    }
    clearTimeout(hung);
    // The last lines are flushed at exit within FINAL_FLUSH_MS, whatever became of stderr (log-destination.ts).
    logger.info('stopped');
    process.exit(0);
  };
}
