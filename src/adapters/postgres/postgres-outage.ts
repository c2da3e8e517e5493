import type pg from 'pg';
import { ServiceUnavailable } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';

/** A statement PostgreSQL could not be asked (down, restarting, cut off): try again shortly. */
export class PostgresUnavailable extends ServiceUnavailable {
  constructor(cause: Error) {
    super(`The replica set's database cannot be reached (${cause.message}); retry shortly`, 1);
  }
}

/** SQLSTATE the fence raises (deploy/postgres/schema-lease.sql): this writer's epoch is no longer the lease's. */
export const FENCED = 'DSF01';

/**
 * Whether `error` says PostgreSQL could not be asked, rather than that it refused the statement: a
 * refused connection or one that ended, a server shutting down or starting (57P01-57P03), a
 * connection exception (class 08), a pool or query timeout.
 */
export function unreachable(error: unknown): boolean {
  if (error instanceof PostgresUnavailable) return true;
  const { code, message } = error as { code?: string; message?: string };
  if (
    typeof code === 'string' &&
    (/^(08|57P0[123])/.test(code) || /^E(CONNREFUSED|CONNRESET|PIPE|TIMEDOUT|HOSTUNREACH|NETUNREACH)$/.test(code))
  )
    return true;
  return /Connection terminated|timeout exceeded when trying to connect|^timeout expired$|Query read timeout|Client has encountered a connection error/.test(
    message ?? '',
  );
}

/**
 * Makes a pool's failures to reach PostgreSQL `PostgresUnavailable` (503 with Retry-After): a read
 * that needs the database answers that while it is away, and the writes that retry know what to retry.
 */
export function answeringUnavailable(pool: pg.Pool): pg.Pool {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as { query: unknown }).query = (...args: unknown[]) =>
    // The callback form (no promise) is left as it is.
    typeof args.at(-1) === 'function'
      ? query(...args)
      : query(...args).catch((error: unknown) => {
          throw unreachable(error) ? new PostgresUnavailable(error as Error) : error;
        });
  return pool;
}

/** How long a write the store applied waits for PostgreSQL to write its rows before the writer gives up and stops. */
export const WRITE_GIVE_UP_MS = 60_000;

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/**
 * Runs a write until PostgreSQL answers it: tried again while PostgreSQL cannot be reached, every
 * 100 ms at first and at most every second (so a write waits at most a second past its return), for
 * at most `giveUpMs`. A refusal (the fence among them) fails at once. The writes it runs are upserts:
 * one applied whose answer was lost does no harm when applied again.
 */
export async function untilAnswered<T>(write: () => Promise<T>, what: string, logger: Logger, giveUpMs: number): Promise<T> {
  const started = performance.now();
  for (let wait = 100, told = false; ; wait = Math.min(wait * 2, 1_000)) {
    try {
      const result = await write();
      if (told) logger.info(`PostgreSQL answers again: ${what} written`, { afterMs: Math.round(performance.now() - started) });
      return result;
    } catch (error) {
      if (!unreachable(error) || performance.now() - started > giveUpMs) throw error;
      if (!told) logger.warn(`PostgreSQL cannot be reached: ${what} waits for it`, { error: (error as Error).message });
      told = true;
    }
    await sleep(wait);
  }
}

/** The writer's retry: `untilAnswered` with the set's give-up time, for every row a commit writes. */
export const writeRetry =
  (logger: Logger) =>
  <T>(write: () => Promise<T>, what: string): Promise<T> =>
    untilAnswered(write, what, logger, WRITE_GIVE_UP_MS);
