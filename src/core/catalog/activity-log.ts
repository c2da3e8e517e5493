import { GRAPHS, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import type { ChangeOp } from '../ports/quad-store.js';
import { DATE_TIME } from './graph-metadata.js';
import type { ActivityLogEntry } from './log-entry.js';

/**
 * The activity-log entry of an activity, kept for GET /activity-logs/{id}, with the consignment it
 * changed. Only what a query reads is written (every quad costs the store's memory, and there is one
 * entry per activity: bench/results/2026-12-08-comment-figures.md): the entry as answered
 * (views/activity-log-entry.rq), its actor, its consignment (an id that names it,
 * policy/activity-consignments.rq) and, for an activity with an ActivityStreams id, its date, which
 * bounds the idempotency window (ingest/processed-activities.rq). Its type and status are not: nothing
 * reads them, and the status is in the entry.
 */
export function logEntryOps(
  activity: string,
  actor: string,
  logEntry: ActivityLogEntry,
  consignment: string | undefined,
  hasActivityId: boolean,
): ChangeOp[] {
  const b = new NQuadsBuilder(GRAPHS.activityLog)
    .iri(activity, svc('actor'), actor)
    .literal(activity, svc('entry'), JSON.stringify(logEntry));
  if (hasActivityId) b.literal(activity, svc('dateCreated'), logEntry.dateCreated, DATE_TIME);
  if (consignment) b.iri(activity, svc('consignment'), consignment);
  return [{ op: 'insert', nquads: b.toString() }];
}
