import { ruleOf, STATUSES, type Status } from './event-codes.js';

export { STATUSES, type Status };

export function isStatus(value: string): value is Status {
  return (STATUSES as readonly string[]).includes(value);
}

/** The status after an event with `typeCode` (event-codes.ts), or undefined when the status stays as it is. */
export function advance(current: string, typeCode: string | undefined): Status | undefined {
  const next = ruleOf(typeCode)?.status;
  if (next === undefined) return undefined;
  // An unknown stored status (written by an older node) ranks lowest, so any known event moves it.
  const rank = isStatus(current) ? STATUSES.indexOf(current) : -1;
  return STATUSES.indexOf(next) > rank ? next : undefined;
}
