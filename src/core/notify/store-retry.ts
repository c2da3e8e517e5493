import type { ChangeNote } from '../catalog/change-notes.js';
import type { Logger } from '../logger.js';
import type { ChangeOp } from '../ports/quad-store.js';
import type { Recorded } from './outbox.js';

/** The longest wait between two tries of a store read or write that failed: the store's return is noticed within it. */
export const STORE_RETRY_MAX_MS = 2000;

/** Reads in a row that find a delivery missing from the store before it is given up (nothing there to mark failed). */
export const MISSING_LIMIT = 5;

/** What a delivery's last try left over when a store step failed. */
export interface Held {
  /** Store steps that failed in a row: the next try waits storeRetryDelay of it. */
  failures: number;
  /** Reads in a row that found no such delivery in the store. */
  missing: number;
  /** An outcome reached but not recorded: the next try commits these ops again rather than send the signal again. */
  outcome?: { ops: ChangeOp[]; notes: ChangeNote[]; recorded: Recorded };
}

/**
 * The wait after the `failures`-th failed store step in a row (1-based): doubling from `baseMs`, at
 * most STORE_RETRY_MAX_MS. A store that is away (a SPARQL server restarting) is neither hammered in a
 * tight loop nor waited on for a receiver's hour-long backoff once it is back.
 */
export function storeRetryDelay(failures: number, baseMs: number): number {
  return Math.min(STORE_RETRY_MAX_MS, Math.max(1, baseMs) * 2 ** Math.min(Math.max(failures, 1) - 1, 20));
}

/**
 * Whether the store answered the deliverer's last step, so an outage is logged once when it begins
 * and once when it ends rather than once a queue a retry.
 */
export class StoreHealth {
  private failing = false;

  constructor(private readonly logger: Logger) {}

  failed(step: string, error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.logger.error('signal delivery cannot reach the store; deliveries stay queued and are retried', {
      step,
      error: (error as Error).message,
    });
  }

  answered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.logger.info('signal delivery reaches the store again');
  }
}
