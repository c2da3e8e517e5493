import { SVC } from '../rdf/namespaces.js';

/**
 * A consignment's status (svc:status on its record, `status` in the read view), driven by the event
 * codes of spec 6. It only moves forward: an event that arrives late (a `svc:despatched` recorded
 * after `svc:atLocationOfExit`) joins the events but leaves the status where it is.
 */
export const STATUSES = [
  'published',
  'preNotified',
  'carrierBooked',
  'operatorMatched',
  'despatched',
  'atExit',
  'leftExit',
  'atEntry',
  'leftEntry',
  'delivered',
] as const;

export type Status = (typeof STATUSES)[number];

/** The status each event code moves a consignment to; codes not listed (svc:issuedDocument, svc:onwardSharing) leave it alone. */
const STATUS_OF_EVENT: Readonly<Record<string, Status>> = {
  preNotification: 'preNotified',
  carrierBooking: 'carrierBooked',
  locationOperatorMatch: 'operatorMatched',
  despatched: 'despatched',
  atLocationOfExit: 'atExit',
  leftLocationOfExit: 'leftExit',
  atLocationOfEntry: 'atEntry',
  leftLocationOfEntry: 'leftEntry',
  arrivedAtFinalDestination: 'delivered',
};

/** The local name of a service event code given as `svc:x` or as the full IRI; undefined for anything else. */
export function eventCode(typeCode: string | undefined): string | undefined {
  if (typeCode === undefined) return undefined;
  if (typeCode.startsWith('svc:')) return typeCode.slice(4);
  if (typeCode.startsWith(SVC)) return typeCode.slice(SVC.length);
  return undefined;
}

export function isStatus(value: string): value is Status {
  return (STATUSES as readonly string[]).includes(value);
}

/** The status after an event with `typeCode`, or undefined when the status stays as it is. */
export function advance(current: string, typeCode: string | undefined): Status | undefined {
  const code = eventCode(typeCode);
  const next = code === undefined ? undefined : STATUS_OF_EVENT[code];
  if (next === undefined) return undefined;
  // An unknown stored status (written by an older node) ranks lowest, so any known event moves it.
  const rank = isStatus(current) ? STATUSES.indexOf(current) : -1;
  return STATUSES.indexOf(next) > rank ? next : undefined;
}
