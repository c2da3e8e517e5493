import type { Accepted } from '../activities/accepted.js';
import { eventSignalTypes, ruleOf, type Audience, type EventSignalType } from '../activities/event-codes.js';
import type { Organisation } from '../registry/registry.js';
import { stamp } from '../rdf/date-times.js';

/** A consignment's Create and Update raise PreNotification; events raise what the event-code table says. */
export type SignalType = 'PreNotification' | EventSignalType;
export type { Audience };

/** Every signal type, for the filter of GET …/signals. */
export const SIGNAL_TYPES: readonly SignalType[] = ['PreNotification', ...eventSignalTypes()];

export interface Trigger {
  type: SignalType;
  audience: Audience;
}

/** Which signal an accepted write sends (spec 1.3, 1.4, 3), if any. */
export function triggerOf(accepted: Accepted): Trigger | undefined {
  if (accepted.kind === 'consignment') return { type: 'PreNotification', audience: 'borderAgencies' };
  if (accepted.kind !== 'event') return undefined;
  const signal = ruleOf(accepted.typeCode)?.signal;
  return signal && { type: signal.type as EventSignalType, audience: signal.audience };
}

/**
 * The organisations a signal goes to: every border agency, or every location operator with a location
 * on the consignment's route (the rule policies use too). Only those with a notification endpoint
 * registered when the signal is raised are queued.
 */
export function receiversOf(
  audience: Audience,
  organisations: readonly Organisation[],
  route: readonly string[],
  hasEndpoint: (organisation: string) => boolean,
): Organisation[] {
  const onRoute = new Set(route);
  return organisations.filter(
    (org) =>
      hasEndpoint(org.id) &&
      (audience === 'borderAgencies'
        ? org.role === 'borderAgency'
        : org.role === 'locationOperator' && org.locations.some((l) => onRoute.has(l))),
  );
}

export interface SignalPayload {
  id: string;
  type: SignalType;
  published: string;
  consignment: {
    globalId: string;
    /** The publisher's own reference; border agencies only (spec 6 rule 3). */
    originRecordID?: string;
    /** Where to read it; reading still needs a data-sharing policy. */
    href: string;
  };
}

export interface SignalFacts {
  id: string;
  trigger: Trigger;
  published: Date;
  globalId: string;
  identifier: string;
  baseUrl: string;
}

/** The JSON body of a signal: the same bytes on every attempt, so its signature and id stay meaningful. */
export function signalPayload(facts: SignalFacts): SignalPayload {
  const { id, trigger, published, globalId, identifier, baseUrl } = facts;
  return {
    id,
    type: trigger.type,
    published: stamp(published),
    consignment: {
      globalId,
      ...(trigger.audience === 'borderAgencies' ? { originRecordID: identifier } : {}),
      href: `${baseUrl}/supply-chain/data-space/consignments/${encodeURIComponent(globalId)}`,
    },
  };
}
