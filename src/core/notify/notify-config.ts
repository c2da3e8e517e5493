import { integerFrom as integer, lowerCaseListFrom } from '../settings/read.js';
import type { RetryPolicy } from './retry-schedule.js';
import type { RedeliveryLimits } from './redelivery-budget.js';

export interface NotifyConfig extends RetryPolicy {
  /** How long one delivery attempt may take before it counts as failed. */
  timeoutMs: number;
  /** Receivers (consignment × organisation queues) served at the same time. */
  concurrency: number;
  /**
   * DATASPACE_NOTIFY_ALLOW: where endpoints registered over the API may point, in the syntax of
   * DATASPACE_FETCH_ALLOW (host names, `*.suffix`, addresses, CIDR ranges, `*` for every public host).
   * Unset means `*`: public hosts only. The seed's URLs are the operator's and are not checked.
   */
  allow: string[];
  /** DATASPACE_REDELIVER_BURST and _PER_HOUR: the redeliveries one organisation may ask for. */
  redeliver?: RedeliveryLimits;
}

/** The DATASPACE_NOTIFY_* settings of signal delivery. */
export function readNotifyConfig(env: NodeJS.ProcessEnv): NotifyConfig {
  const baseMs = integer(env, 'DATASPACE_NOTIFY_RETRY_MS');
  return {
    baseMs,
    maxDelayMs: Math.max(baseMs, integer(env, 'DATASPACE_NOTIFY_MAX_DELAY_MS')),
    giveUpAfterMs: integer(env, 'DATASPACE_NOTIFY_GIVE_UP_MS'),
    timeoutMs: integer(env, 'DATASPACE_NOTIFY_TIMEOUT_MS'),
    concurrency: integer(env, 'DATASPACE_NOTIFY_CONCURRENCY'),
    redeliver: { burst: integer(env, 'DATASPACE_REDELIVER_BURST'), perHour: integer(env, 'DATASPACE_REDELIVER_PER_HOUR') },
    allow: lowerCaseListFrom(env, 'DATASPACE_NOTIFY_ALLOW'),
  };
}
