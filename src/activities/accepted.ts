import type { Principal } from '../auth/principal.js';
import type { ConsignmentRecord } from '../catalog/records.js';
import type { ChangeOp } from '../store/quad-store.js';
import type { ActivityType } from './envelope.js';

/** What an accepted write did, for the log entry and for listeners (signals, caches). */
export interface Accepted {
  kind: 'consignment' | 'event' | 'document';
  activityType: ActivityType;
  /** The consignment's record as the commit leaves it. */
  consignment: ConsignmentRecord;
  /** The data graph written. */
  graph: string;
  /** Event typeCode for Add of a SupplyChainEvent. */
  typeCode?: string;
}

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
}
