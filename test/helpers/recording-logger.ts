import type { Logger } from '../../src/core/logger.js';

/** A logger that keeps the message of every line, whatever its level, to see what a node did. */
export function recordingLogger(): Logger & { messages: string[] } {
  const messages: string[] = [];
  const keep = (message: string) => {
    messages.push(message);
  };
  return { messages, info: keep, warn: keep, error: keep, debug: keep };
}
