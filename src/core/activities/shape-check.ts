import type { Quad } from '@rdfjs/types';
import type { PayloadValidator } from '../validation/index.js';
import { BadRequest, Unprocessable } from '../errors.js';
import type { PayloadCheck } from './payload-reader.js';

/** The inbox's SHACL step: a payload with any Violation is refused (400 or 422) with every result listed. */
export class ShapeCheck implements PayloadCheck {
  constructor(private readonly validator: PayloadValidator) {}

  async check(quads: Quad[]): Promise<void> {
    const report = await this.validator.validate(quads);
    if (report.conforms) return;
    const violations = report.results.filter((r) => r.severity === 'Violation');
    const first = violations[0];
    const message =
      `The payload failed validation with ${violations.length} violation${violations.length === 1 ? '' : 's'}` +
      (first ? `, first: ${first.path ?? first.focusNode}: ${first.message}` : '');
    // Spec 7.1: a missing required field is a malformed activity (400); any other broken rule is 422.
    // Both carry the whole report, so one answer names everything to fix.
    if (report.missingRequired) {
      const missing = violations.find((r) => r.message.startsWith('Missing ')) ?? first;
      throw new BadRequest(
        `A required field is missing: ${missing ? `${missing.path ?? missing.focusNode}: ${missing.message}` : message}`,
        { results: report.results },
      );
    }
    throw new Unprocessable(message, { results: report.results });
  }
}
