import type { Principal } from '../auth/principal.js';
import type { Accepted } from '../catalog/accepted.js';
import type { ChangeOp } from '../ports/quad-store.js';

// The accepted write is the catalog's fact (core/catalog/accepted.ts); contributors and handlers name it from here too.
export type { Accepted };

/** Context a contributor gets about the accepted activity. */
export interface WriteContext {
  activity: string;
  principal: Principal;
  now: Date;
}

/**
 * Adds its own changes (e.g. outbox entries for signals) to the commit of an accepted activity, so
 * they are written in the same atomic, durable step. Runs under the ingest lock.
 */
export interface WriteContributor {
  contribute(accepted: Accepted, context: WriteContext): ChangeOp[] | Promise<ChangeOp[]>;
  /** The activity's commit failed: what the contributor keeps for it until publication is dropped. */
  abandon(activity: string): void;
}
