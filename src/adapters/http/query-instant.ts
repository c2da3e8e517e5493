import { BadRequest } from '../../core/errors.js';

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):(\d{2})))?$/;

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * A date or date-time query parameter (`updatedSince`, a signal list's `since`/`until`) as ms since
 * the epoch, read one way on every list: a date-time with its offset (`Z` or `±hh:mm`), or a date
 * alone (the start of that day, UTC). Calendar dates are checked (2026-02-30 is refused, not read as
 * 2 March). A `+` offset sent unencoded arrives as a space and is read as meant. A time finer than a
 * millisecond is rounded up: records keep milliseconds, and none before the time may show.
 */
export function readInstant(name: string, text: string): number {
  const written = text.replace(/ (\d{2}:\d{2})$/, '+$1');
  const match = DATE_TIME.exec(written);
  const bad = () =>
    new BadRequest(
      `${name} must be a date-time with its offset (2026-11-27T08:00:00Z, 2026-11-27T09:00:00+01:00) or a date (2026-11-27); got ${JSON.stringify(text.slice(0, 40))}`,
    );
  if (!match) throw bad();
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', , oh = '00', om = '00'] = match;
  const [year, month, day] = [Number(y), Number(mo), Number(d)];
  const outOfRange =
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysIn(year, month) ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s) > 59 ||
    Number(oh) > 23 ||
    Number(om) > 59;
  if (outOfRange) throw bad();
  const ms = Date.parse(match[4] === undefined ? `${y}-${mo}-${d}T00:00:00Z` : written);
  if (Number.isNaN(ms)) throw bad();
  return /[1-9]/.test(fraction.slice(3)) ? ms + 1 : ms;
}
