import { activityIdOps } from './idempotency.js';
import type { WriteContributor } from './accepted.js';
import type { Outcome, Step } from './handlers/handler.js';
import { logEntryOps } from '../catalog/activity-log.js';
import { acceptedNote } from '../catalog/change-notes.js';
import { entry, task, type ActivityLogEntry } from '../catalog/log-entry.js';
import { startRecordOps } from '../catalog/records.js';
import { activitySystemEventOps } from '../catalog/system-events.js';
import type { Change, ChangeOp, Charge } from '../ports/quad-store.js';
import { stamp } from '../rdf/date-times.js';

/** What the decision leaves to tell: the activity as sent and when its handling started. */
export interface Sent {
  /** The envelope's type (Create, Update, Add), as the system event's code. */
  type: string;
  /** The sender's own activity id, kept for idempotency; undefined when none was sent. */
  activityId: string | undefined;
  /** The payload's digest, kept beside the activity id. */
  digest: string;
  started: Date;
}

/** What building the change takes from the ingest: the node, its clock, sequence and contributors. */
export interface ChangeContext {
  nodeName: string;
  now(): Date;
  nextSeq(): number;
  contributors: readonly WriteContributor[];
}

/**
 * The change an outcome commits, in one atomic write: an accepted activity's data, system event,
 * record stamp and contributors' entries; for any outcome, its log entry and the charge to the sender.
 * A refused activity commits its log entry alone.
 */
export async function buildChange(
  outcome: Outcome,
  step: Step,
  sent: Sent,
  context: ChangeContext,
): Promise<{ logEntry: ActivityLogEntry; change: Change }> {
  const { activity, principal } = step;
  const t = outcome.ok
    ? task(outcome.appId, sent.started, context.now(), { result: outcome.quads })
    : task(outcome.appId, sent.started, context.now(), { error: outcome.error });
  const logEntry = entry(activity, context.nodeName, step.now, [t]);
  if (outcome.ok && step.warnings.length > 0) logEntry.warnings = step.warnings;
  const ops: ChangeOp[] = [];
  if (outcome.ok) {
    const { accepted } = outcome;
    const about = { ...step, typeCode: sent.type.toUpperCase(), consignment: accepted.consignment, object: outcome.systemEvent };
    ops.push(...outcome.ops, ...activitySystemEventOps(about, context.nextSeq()));
    // Every accepted activity sets the consignment's `updated` to its time (create, update, touch).
    ops.push(...startRecordOps(accepted.consignment, stamp(step.now), accepted.activityType === 'Create'));
    for (const contributor of context.contributors) ops.push(...(await contributor.contribute(accepted, step)));
  }
  const consignment = outcome.ok ? outcome.accepted.consignment.consignment : undefined;
  ops.push(...logEntryOps(activity, principal.org.id, logEntry, consignment, outcome.ok && sent.activityId !== undefined));
  if (outcome.ok && sent.activityId !== undefined) ops.push(...activityIdOps(activity, sent.activityId, sent.digest));
  const notes = outcome.ok ? [acceptedNote(outcome.accepted, activity)] : [];
  return { logEntry, change: { ops, notes, charge: charge(outcome, principal.org.id) } };
}

/** Charged to the sender: an accepted write by what it adds, a refused one by its log entry's bytes. */
function charge(outcome: Outcome, organisation: string): Charge {
  if (!outcome.ok) return { organisation };
  const { accepted } = outcome;
  return {
    organisation,
    consignments: accepted.activityType === 'Create' ? 1 : 0,
    graphs: accepted.kind === 'consignment' ? 0 : 1,
    consignment: { record: accepted.consignment.consignment, owner: accepted.consignment.owner },
  };
}
