import { pino, type DestinationStream } from 'pino';
import { stderrLog } from './log-destination.js';
import { textFrom } from './settings/read.js';

/** Structured JSON logs (pino) on stderr, through log-destination.ts (off the event loop; ends whatever became of its reader). */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Detail for finding where time goes (DATASPACE_LOG=debug); optional so small test loggers need not have it. */
  debug?(message: string, fields?: Record<string, unknown>): void;
}

/**
 * Secrets never reach a log line, whoever passes them: credentials by field name at any of the first
 * two levels, and the headers that carry them should a request or response object be logged whole.
 */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'authorization',
  '*.authorization',
  'cookie',
  '*.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
];

/** Every key REDACTED_PATHS names at the first or second level, `headers` for the paths that go deeper. */
const REDACTED_KEYS = new Set(['password', 'token', 'secret', 'authorization', 'cookie', 'headers']);

/** Whether any of REDACTED_PATHS could match in `fields`: a key of REDACTED_KEYS at its first or second level. */
export function mayHoldSecrets(fields: Record<string, unknown>): boolean {
  for (const key in fields) {
    if (REDACTED_KEYS.has(key)) return true;
    const value = fields[key];
    if (typeof value === 'object' && value !== null) for (const inner in value) if (REDACTED_KEYS.has(inner)) return true;
  }
  return false;
}

export function createLogger(
  level: string = textFrom(process.env, 'DATASPACE_LOG') ?? 'info',
  destination: DestinationStream = stderrLog(),
): Logger {
  const redacting = pino({ level, base: undefined, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
  // pino's redaction walks its paths for every line, costing many times the line itself (the figures:
  // bench/results/2026-12-07-comment-figures.md): an access-log line holds no key it could match, so it is written without.
  const plain = pino({ level, base: undefined }, destination);
  const pick = (fields: Record<string, unknown>) => (mayHoldSecrets(fields) ? redacting : plain);
  return {
    info: (message, fields = {}) => pick(fields).info(fields, message),
    warn: (message, fields = {}) => pick(fields).warn(fields, message),
    error: (message, fields = {}) => pick(fields).error(fields, message),
    // Bound only when enabled, so callers can skip building the fields at other levels.
    debug: plain.isLevelEnabled('debug') ? (message, fields = {}) => pick(fields).debug(fields, message) : undefined,
  };
}
