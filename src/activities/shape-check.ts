import type { Quad } from '@rdfjs/types';
import type { PayloadValidator } from '../validation/index.js';
import { Unprocessable } from '../errors.js';
import type { PayloadCheck } from './payload-reader.js';

/** The inbox's SHACL step: a payload with any Violation is refused with every result listed. */
export class ShapeCheck implements PayloadCheck {
  constructor(private readonly validator: PayloadValidator) {}

  async check(quads: Quad[]): Promise<void> {
    const report = await this.validator.validate(quads);
    if (report.conforms) return;
    const violations = report.results.filter((r) => r.severity === 'Violation');
    const first = violations[0];
    throw new Unprocessable(
      `The payload failed validation with ${violations.length} violation${violations.length === 1 ? '' : 's'}` +
        (first ? `, first: ${first.path ?? first.focusNode}: ${first.message}` : ''),
      { results: report.results },
    );
  }
}
