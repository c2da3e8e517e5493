import { pino } from 'pino';

/** Structured JSON logs (pino) on stderr. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Detail for finding where time goes (DATASPACE_LOG=debug); optional so small test loggers need not have it. */
  debug?(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(level: string = process.env.DATASPACE_LOG ?? 'info'): Logger {
  const log = pino({ level, base: undefined }, pino.destination(2));
  return {
    info: (message, fields = {}) => log.info(fields, message),
    warn: (message, fields = {}) => log.warn(fields, message),
    error: (message, fields = {}) => log.error(fields, message),
    // Bound only when enabled, so callers can skip building the fields at other levels.
    debug: log.isLevelEnabled('debug') ? (message, fields = {}) => log.debug(fields, message) : undefined,
  };
}
