import { GRAPHS, RDF_TYPE, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import { iriToString } from '../rdf/terms.js';
import type { ChangeOp } from '../ports/quad-store.js';
import { DATE_TIME } from './graph-metadata.js';
import type { ConsignmentRecord } from './records.js';
import { stamp } from '../rdf/date-times.js';

/**
 * The consignment record's quads in the metadata graph, as every write path changes them: written
 * here, read by records.ts (and its packed start-record form) and the record queries of sparql/.
 * Callers that add other metadata in the same commit pass their builder, so the activity stays one
 * insert.
 */

/** A Create's record: every field, the route locations, created and updated both its time. */
export function newRecord(meta: NQuadsBuilder, record: ConsignmentRecord): NQuadsBuilder {
  const c = record.consignment;
  meta
    .iri(c, RDF_TYPE, svc('ConsignmentRecord'))
    .literal(c, svc('globalId'), record.globalId)
    .literal(c, svc('identifier'), record.identifier)
    .iri(c, svc('owner'), record.owner)
    .literal(c, svc('created'), record.created, DATE_TIME)
    .literal(c, svc('updated'), record.created, DATE_TIME)
    .literal(c, svc('status'), record.status)
    .literal(c, svc('seq'), record.seq)
    .iri(c, svc('stateGraph'), record.stateGraph);
  for (const location of record.routes ?? []) meta.literal(c, svc('routeLocation'), location);
  if (record.sentId !== undefined) meta.literal(c, svc('sentId'), record.sentId);
  return meta;
}

/** What an Update changes on the record. */
export interface RecordRevision {
  identifier: string;
  updated: Date;
  routes: readonly string[];
  /** The root id sent, if any: an Update is the complete state, so one sent without drops it. */
  sentId: string | undefined;
}

/** An Update's record: identifier, updated, route and sent id replaced. Gives the deletes to run before `meta` is inserted. */
export function revisedRecord(meta: NQuadsBuilder, record: ConsignmentRecord, revision: RecordRevision): ChangeOp[] {
  const c = record.consignment;
  meta.literal(c, svc('identifier'), revision.identifier).literal(c, svc('updated'), stamp(revision.updated), DATE_TIME);
  for (const location of revision.routes) meta.literal(c, svc('routeLocation'), location);
  if (revision.sentId !== undefined) meta.literal(c, svc('sentId'), revision.sentId);
  // The record knows its sent id (read from this graph): a consignment that has none sends no delete for it.
  const properties = ['identifier', 'updated', 'routeLocation', ...(record.sentId === undefined ? [] : ['sentId'])];
  return properties.map((p) => cleared(record, p));
}

/** Marks the consignment as changed now (its `updated`), when a graph is added to it. */
export function touch(record: ConsignmentRecord, now: Date): ChangeOp[] {
  return [
    cleared(record, 'updated'),
    {
      op: 'insert',
      nquads: new NQuadsBuilder(GRAPHS.metadata).literal(record.consignment, svc('updated'), stamp(now), DATE_TIME).toString(),
    },
  ];
}

/** The consignment's status, replaced (core/activities/status.ts decides it). */
export function statusOps(record: ConsignmentRecord, status: string): ChangeOp[] {
  return [
    cleared(record, 'status'),
    { op: 'insert', nquads: new NQuadsBuilder(GRAPHS.metadata).literal(record.consignment, svc('status'), status).toString() },
  ];
}

function cleared(record: ConsignmentRecord, property: string): ChangeOp {
  return {
    op: 'deleteMatching',
    subject: iriToString(record.consignment),
    predicate: iriToString(svc(property)),
    object: null,
    graph: GRAPHS.metadata,
  };
}
