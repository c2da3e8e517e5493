import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal.js';
import { GRAPHS, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import type { ChangeOp } from '../ports/quad-store.js';
import type { ConsignmentRecord } from './records.js';
import { stamp } from '../rdf/date-times.js';

/**
 * Spec 2.9 types a SystemEvent's `detail` as a map of name to object: each entry is `{id}` when it
 * names something (an activity, an organisation) and `{value}` when it is a plain value.
 */
export type Detail = Record<string, { id: string } | { value: string | number | boolean }>;

export const named = (id: string): { id: string } => ({ id });
export const valued = (value: string | number | boolean): { value: string | number | boolean } => ({ value });

/** What a system event says about the object an activity wrote. */
export interface SystemEventObject {
  objectId: string;
  objectType: string;
  /** Plain values, turned into `{value}` objects when written. */
  objectDetail: Record<string, unknown>;
}

type Json = Record<string, unknown>;

/**
 * A stored system event as the read view gives it: details stored before they were objects (plain
 * strings and numbers) are read as `{value}`, so every reader sees one type.
 */
export function systemEventView(json: Json): Json {
  const out: Json = { ...json };
  for (const part of ['source', 'object', 'target']) {
    const about = json[part];
    if (typeof about !== 'object' || about === null) continue;
    const detail = (about as Json).detail;
    if (typeof detail !== 'object' || detail === null) continue;
    out[part] = { ...about, detail: asDetail(detail as Json) };
  }
  return out;
}

/** Each plain value of a detail map as `{value}`; objects (`{id}`, `{value}`) as they are. */
function asDetail(detail: Json): Detail {
  return Object.fromEntries(
    Object.entries(detail).map(([name, v]) => [name, typeof v === 'object' && v !== null ? v : { value: v }]),
  ) as Detail;
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
    source: { id: principal.org.id, type: 'TradeParty', detail: { name: valued(principal.org.name), role: valued(principal.org.role) } },
    object: { id: object.objectId, type: object.objectType, detail: asDetail(object.objectDetail) },
    target: {
      id: consignment.globalId,
      type: 'Consignment',
      detail: { identifier: valued(consignment.identifier), activity: named(about.activity) },
    },
    date: stamp(about.now),
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
  // The receiver is stored as a string, or as {id} in the read view's form (spec: a map of name to object).
  const receiver = (event.object as { detail?: { receiver?: unknown } } | undefined)?.detail?.receiver;
  return receiver === reader || (typeof receiver === 'object' && receiver !== null && (receiver as { id?: unknown }).id === reader);
}
