import { ConfigError } from '../config.js';
import type { RetryPolicy } from './retry-schedule.js';

export interface NotifyConfig extends RetryPolicy {
  /** How long one delivery attempt may take before it counts as failed. */
  timeoutMs: number;
  /** Receivers (consignment × organisation queues) served at the same time. */
  concurrency: number;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return value;
}

/** The DATASPACE_NOTIFY_* settings of signal delivery. */
export function readNotifyConfig(env: NodeJS.ProcessEnv): NotifyConfig {
  const baseMs = integer(env, 'DATASPACE_NOTIFY_RETRY_MS', 1000, 1);
  return {
    baseMs,
    maxDelayMs: Math.max(baseMs, integer(env, 'DATASPACE_NOTIFY_MAX_DELAY_MS', 60 * 60 * 1000, 1)),
    giveUpAfterMs: integer(env, 'DATASPACE_NOTIFY_GIVE_UP_MS', 24 * 60 * 60 * 1000, 0),
    timeoutMs: integer(env, 'DATASPACE_NOTIFY_TIMEOUT_MS', 10_000, 1),
    concurrency: integer(env, 'DATASPACE_NOTIFY_CONCURRENCY', 8, 1),
  };
}
