import type { ConsignmentRecord } from './consignment-record.js';

/** The activities the inbox takes (spec 7.1). */
export type ActivityType = 'Create' | 'Update' | 'Add';

/** What an accepted write did, for the log entry and for the change feed's followers (signals, caches). */
export interface Accepted {
  kind: 'consignment' | 'event' | 'document';
  activityType: ActivityType;
  /** The consignment's record as the commit leaves it. */
  consignment: ConsignmentRecord;
  /** The data graph written. */
  graph: string;
  /** The document record an Add of a Document made (its first revision): its IRI and registration number. */
  document?: { iri: string; seq: number };
  /** Event typeCode for Add of a SupplyChainEvent. */
  typeCode?: string;
  /** For Add of a Document: the revision number it became (1 for a new document). */
  revision?: number;
}
