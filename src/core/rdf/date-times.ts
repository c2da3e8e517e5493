/**
 * Date-times as the node stores and answers them: one canonical form per instant as written, so equal
 * values compare equal in SPARQL and in every view, and the form the embedded store reads back.
 *
 * - The date is a real calendar date (2026-02-30, 2026-04-31 and 2027-02-29 are not; 2028-02-29 is).
 *   The shapes refuse what is not (scripts/generate-shapes.ts `ISO_DATE_TIME_PATTERN`); this module
 *   only rewrites what they admit.
 * - Seconds are always written (`08:30` → `08:30:00`); a fraction keeps its digits without trailing
 *   zeros (`.500` → `.5`, `.000` dropped).
 * - The offset the sender gave is kept as `+hh:mm` (`+0530` → `+05:30`); a zero offset is `Z`.
 * - A date-time without an offset is refused by the shapes: the node cannot tell which instant a
 *   sender's local time means, and guessing UTC would move it silently by hours.
 */

const LENIENT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (DAYS[month - 1] ?? 0);
}

/** The canonical form of an ISO 8601 date-time with an offset, or undefined when `text` is not one. */
export function canonicalDateTime(text: string): string | undefined {
  const m = LENIENT.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = '00', fraction = '', zone] = m as unknown as string[];
  const year = Number(y),
    month = Number(mo),
    day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const offset = canonicalOffset(zone!);
  if (offset === undefined) return undefined;
  const digits = fraction.replace(/0+$/, '');
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${digits ? `.${digits}` : ''}${offset}`;
}

function canonicalOffset(zone: string): string | undefined {
  if (zone === 'Z') return 'Z';
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(-2));
  if (minutes > 59 || hours > 14 || (hours === 14 && minutes > 0)) return undefined;
  if (hours === 0 && minutes === 0) return 'Z';
  return `${zone[0]}${zone.slice(1, 3)}:${zone.slice(-2)}`;
}

/**
 * A date-time the node writes itself (a record's `updated`, a signal's `published`, a delivery's
 * attempt, a policy's `created`), in the same canonical form: what the node sends and what a read
 * gives back are the same string. Compare them as instants (Date.parse), not as text: without
 * trailing zeros `…:42Z` sorts after `…:42.1Z`.
 */
export function stamp(date: Date): string {
  return canonicalDateTime(date.toISOString())!;
}
