import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal.js';
import { GRAPHS, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import type { ChangeOp } from '../store/quad-store.js';
import type { ConsignmentRecord } from './records.js';

/** What a system event says about the object an activity wrote. */
export interface SystemEventObject {
  objectId: string;
  objectType: string;
  objectDetail: Record<string, unknown>;
}

/**
 * A system event as stored in the activity-log graph, readable by whoever may read its consignment:
 * what views/system-events.rq reads and no more (no rdf:type: nothing reads it, and the `json` says it).
 */
export function systemEventQuads(id: string, consignment: string, publisher: string, json: unknown, seq: number): string {
  return new NQuadsBuilder(GRAPHS.activityLog)
    .iri(id, svc('systemEventOf'), consignment)
    .iri(id, svc('publisher'), publisher)
    .literal(id, svc('json'), JSON.stringify(json))
    .literal(id, svc('seq'), seq)
    .toString();
}

/** The system event of an accepted activity (CREATE, UPDATE or ADD) on a consignment. */
export function activitySystemEventOps(
  about: { activity: string; principal: Principal; now: Date; typeCode: string; consignment: ConsignmentRecord; object: SystemEventObject },
  seq: number,
): ChangeOp[] {
  const id = `urn:uuid:${randomUUID()}`;
  const { principal, consignment, object } = about;
  const json = {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id,
    type: 'SystemEvent',
    typeCode: about.typeCode,
    source: { id: principal.org.id, type: 'TradeParty', detail: { name: principal.org.name, role: principal.org.role } },
    object: { id: object.objectId, type: object.objectType, detail: object.objectDetail },
    target: { id: consignment.globalId, type: 'Consignment', detail: { identifier: consignment.identifier, activity: about.activity } },
    date: about.now.toISOString(),
  };
  return [{ op: 'insert', nquads: systemEventQuads(id, consignment.consignment, principal.org.id, json, seq) }];
}

const SIGNAL_EVENTS = new Set(['SIGNAL_DELIVERED', 'SIGNAL_FAILED']);

/**
 * Whether `reader` may see a system event of a consignment `owner` publishes: a signal's delivery
 * (who was notified, their answer) is told to the owner and to that receiver only; every other event
 * to whoever may read the consignment. Read from the event's JSON, so events stored before the rule
 * follow it too.
 */
export function systemEventVisibleTo(event: Record<string, unknown>, reader: string, owner: string): boolean {
  if (reader === owner || !SIGNAL_EVENTS.has(event.typeCode as string)) return true;
  const object = event.object as { detail?: { receiver?: unknown } } | undefined;
  return object?.detail?.receiver === reader;
}
