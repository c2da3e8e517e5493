import type pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { CounterFactory } from '../../core/auth/login-throttle.js';

/**
 * Failed-login counters in PostgreSQL (rate-limiter-flexible's, on the table deploy/postgres/schema.sql
 * makes: its own would cap keys at 255 characters, and an email alone may have 254): a replica that
 * takes over goes on counting where the last one stopped. Expired rows are cleared hourly by the library.
 */
export function postgresCounters(pool: pg.Pool): CounterFactory {
  return (options) =>
    new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: 'dataspace_login_throttle',
      tableCreated: true,
      ...options,
    });
}
