// Apart from records.ts, which reads and writes records in the store: the change notes (and so the
// store's Change) name a record without importing the store back.
/** A consignment's bookkeeping in the metadata graph. */
export interface ConsignmentRecord {
  consignment: string;
  owner: string;
  globalId: string;
  identifier: string;
  stateGraph: string;
  created: string;
  status: string;
  /** The sequence number of its Create. */
  seq: number;
  /**
   * Its route locations (svc:routeLocation), where known: a record read from its start record literal
   * or written since, not one read the long way (the read index then reads the routes itself).
   */
  routes?: readonly string[];
  /**
   * The root `id` sent beside the globalId (pilot E's `urn:ucr:…`), as sent: the view's `id`, and an id
   * the consignment's URL answers to (docs/decisions.md, "Sent ids"). Unique across the node.
   */
  sentId?: string;
}
