import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { shapesDir } from '../../../../src/core/project-paths.js';
import { isDateTimeKey } from '../../../../src/core/activities/payload-forms.js';
import { canonicalDateTime, daysInMonth, stamp } from '../../../../src/core/rdf/date-times.js';
import { ISO_DATE_TIME_PATTERN } from '../../../../scripts/generate-shapes.js';

describe('date-times: calendar dates and their one stored form', () => {
  // [sent, stored form or undefined when not a date-time the node takes]
  const rows: [string, string | undefined][] = [
    ['2024-05-14T08:30:00Z', '2024-05-14T08:30:00Z'],
    ['2024-05-14T08:30Z', '2024-05-14T08:30:00Z'],
    ['2024-05-14T08:30:00+0530', '2024-05-14T08:30:00+05:30'],
    ['2024-05-14T08:30:00-00:00', '2024-05-14T08:30:00Z'],
    ['2024-05-14T08:30:00.120+14:00', '2024-05-14T08:30:00.12+14:00'],
    ['2024-05-14T08:30:00.000Z', '2024-05-14T08:30:00Z'],
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00Z'],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00Z'],
    ['1900-02-29T00:00:00Z', undefined],
    ['2027-02-29T00:00:00Z', undefined],
    ['2026-02-30T00:00:00Z', undefined],
    ['2026-04-31T00:00:00Z', undefined],
    ['2026-13-01T00:00:00Z', undefined],
    ['2026-05-01T24:00:00Z', undefined],
    ['2026-05-01T10:00:00', undefined],
    ['2026-05-01T10:00:00+15:00', undefined],
    ['2026-05-8T19:00:00Z', undefined],
    ['14 May 2024', undefined],
  ];
  const pattern = new RegExp(ISO_DATE_TIME_PATTERN);
  for (const [sent, stored] of rows) {
    it(`${sent} → ${stored ?? 'refused'}, and the shapes' pattern agrees`, () => {
      expect(canonicalDateTime(sent)).to.equal(stored);
      expect(pattern.test(sent), 'pattern').to.equal(stored !== undefined);
      if (stored !== undefined) expect(canonicalDateTime(stored)).to.equal(stored);
    });
  }

  it("is the same pattern in the activity's date-time shape (shapes/activity.ttl) as in the generated ones", () => {
    const turtle = JSON.stringify(ISO_DATE_TIME_PATTERN);
    expect(readFileSync(resolve(shapesDir, 'activity.ttl'), 'utf8')).to.contain(`sh:pattern ${turtle}`);
    expect(readFileSync(resolve(shapesDir, 'd23b-ranges.ttl'), 'utf8')).to.contain(`sh:pattern ${turtle}`);
  });

  it('knows the days of each month, leap years included', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2026, m))).to.deep.equal([
      31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
    ]);
    expect([2024, 2000, 1900, 2100, 2400].map((y) => daysInMonth(y, 2))).to.deep.equal([29, 29, 28, 28, 29]);
  });

  it("finds date-time fields under any spelling of the term, and the activity's own at its top only", () => {
    expect(
      ['issueDateTime', 'unece:occurrenceDateTime', 'https://vocabulary.uncefact.org/scheduledOccurrenceDateTime'].map((k) =>
        isDateTimeKey(k, false),
      ),
    ).to.deep.equal([true, true, true]);
    expect([isDateTimeKey('published', true), isDateTimeKey('published', false), isDateTimeKey('identifier', true)]).to.deep.equal([
      true,
      false,
      false,
    ]);
  });

  it("writes the node's own stamps in the same form: no trailing zeros, none of a whole second", () => {
    expect(
      ['2026-11-28T02:04:42.440Z', '2026-11-28T02:04:42.400Z', '2026-11-28T02:04:42.000Z', '2026-11-28T02:04:42.123Z'].map((t) =>
        stamp(new Date(t)),
      ),
    ).to.deep.equal(['2026-11-28T02:04:42.44Z', '2026-11-28T02:04:42.4Z', '2026-11-28T02:04:42Z', '2026-11-28T02:04:42.123Z']);
  });
});
