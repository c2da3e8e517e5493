import { SVC } from '../rdf/namespaces.js';

/**
 * The event codes of spec 6 and what the node does with each: one table, read by the status
 * (status.ts), the role check (roles.ts, handlers/add-event.ts), the signals (core/notify/signals.ts) and
 * the effects (event-rules.ts); shapes/event-codes.ttl is generated from it (npm run generate-shapes).
 * A new code is a new row here and in its test.
 */

/**
 * The statuses a consignment moves through (svc:status on its record, `status` in the read view), in
 * order: a status only moves forward, so an event that arrives late (svc:despatched recorded after
 * svc:atLocationOfExit) joins the events but leaves the status where it is. A Create sets the first.
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

/** The role whose organisations may send events with the code (spec 1.2, 6 rule 1). */
export type Sender = 'freightForwarder' | 'locationOperator';

/** Who a signal goes to: every border agency, or the location operators on the consignment's route. */
export type Audience = 'borderAgencies' | 'routeOperators';

/**
 * What an accepted event does beyond being recorded and moving the status (event-rules.ts):
 * `nodeStamps` names the node as the event's generator and dates an undated event on arrival (the
 * sender's generator is not trusted); `carrierOnConsignment` sets the carrier fields it names on the
 * consignment.
 */
export type Effect = 'nodeStamps' | 'carrierOnConsignment';

export interface EventCodeRule {
  sender: Sender;
  /** The status it moves a consignment to; without one the status stays. */
  status?: Status;
  /** The signal an accepted event raises (spec 3, 6 rule 3). */
  signal?: { type: string; audience: Audience };
  effect?: Effect;
}

/** One row per code, in the order of spec 6 (the order the shape lists them). */
export const EVENT_CODES = {
  preNotification: { sender: 'freightForwarder', status: 'preNotified' },
  despatched: { sender: 'freightForwarder', status: 'despatched', signal: { type: 'Despatch', audience: 'borderAgencies' } },
  issuedDocument: { sender: 'freightForwarder' },
  onwardSharing: { sender: 'freightForwarder' },
  carrierBooking: {
    sender: 'freightForwarder',
    status: 'carrierBooked',
    signal: { type: 'CarrierBookingNotification', audience: 'routeOperators' },
    effect: 'carrierOnConsignment',
  },
  locationOperatorMatch: { sender: 'locationOperator', status: 'operatorMatched', effect: 'nodeStamps' },
  atLocationOfExit: { sender: 'freightForwarder', status: 'atExit' },
  leftLocationOfExit: { sender: 'freightForwarder', status: 'leftExit' },
  atLocationOfEntry: { sender: 'freightForwarder', status: 'atEntry' },
  leftLocationOfEntry: { sender: 'freightForwarder', status: 'leftEntry' },
  arrivedAtFinalDestination: { sender: 'freightForwarder', status: 'delivered' },
} as const satisfies Readonly<Record<string, EventCodeRule>>;

export type EventCode = keyof typeof EVENT_CODES;

/** The signal types events raise, as the table names them. */
export type EventSignalType = { [C in EventCode]: (typeof EVENT_CODES)[C] extends { signal: { type: infer T } } ? T : never }[EventCode];

/** The local name of a service event code given as `svc:x` or as the full IRI; undefined for anything else. */
export function eventCode(typeCode: string | undefined): string | undefined {
  if (typeCode === undefined) return undefined;
  if (typeCode.startsWith('svc:')) return typeCode.slice(4);
  if (typeCode.startsWith(SVC)) return typeCode.slice(SVC.length);
  return undefined;
}

/** The row of an event's `typeCode`, or undefined for a code the node attaches no behaviour to. */
export function ruleOf(typeCode: string | undefined): (EventCodeRule & { code: EventCode }) | undefined {
  const code = eventCode(typeCode);
  if (code === undefined || !Object.hasOwn(EVENT_CODES, code)) return undefined;
  return { code: code as EventCode, ...(EVENT_CODES[code as EventCode] as EventCodeRule) };
}

/** The codes only `sender`'s organisations send, as `svc:` names. */
export function codesSentBy(sender: Sender): string[] {
  return Object.entries(EVENT_CODES)
    .filter(([, rule]) => rule.sender === sender)
    .map(([code]) => `svc:${code}`);
}

/** The signal types events raise, each once, in the table's order. */
export function eventSignalTypes(): EventSignalType[] {
  const rules: readonly EventCodeRule[] = Object.values(EVENT_CODES);
  return [...new Set(rules.flatMap((rule) => (rule.signal ? [rule.signal.type as EventSignalType] : [])))];
}
