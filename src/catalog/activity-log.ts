import { GRAPHS, RDF_TYPE, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import type { ChangeOp } from '../store/quad-store.js';
import { DATE_TIME } from './graph-metadata.js';
import type { ActivityLogEntry } from './log-entry.js';

/** The activity-log entry of an activity, kept for GET /activity-logs/{id}, with the consignment it changed. */
export function logEntryOps(activity: string, actor: string, logEntry: ActivityLogEntry, consignment: string | undefined): ChangeOp[] {
  const b = new NQuadsBuilder(GRAPHS.activityLog)
    .iri(activity, RDF_TYPE, svc('ActivityLogEntry'))
    .iri(activity, svc('actor'), actor)
    .literal(activity, svc('entry'), JSON.stringify(logEntry))
    .literal(activity, svc('status'), logEntry.status)
    .literal(activity, svc('dateCreated'), logEntry.dateCreated, DATE_TIME);
  if (consignment) b.iri(activity, svc('consignment'), consignment);
  return [{ op: 'insert', nquads: b.toString() }];
}
