import type { Logger } from '../../src/core/logger.js';

/** A logger that keeps the account audit lines, to check every account change leaves one. */
export function auditRecorder(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const keep = (_message: string, fields?: Record<string, unknown>) => {
    if (fields?.audit === 'account') lines.push(fields);
  };
  return { logger: { info: keep, warn: keep, error: () => undefined }, lines };
}
