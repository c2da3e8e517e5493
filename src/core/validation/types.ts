import type { Quad } from '@rdfjs/types';

export type Severity = 'Violation' | 'Warning' | 'Info';

/** One broken rule, written for the person who sent the payload. */
export interface ValidationResult {
  /** The object the rule applies to: `object`, `consignor.postalAddress`, an IRI, ... */
  focusNode: string;
  /** Property chain from the activity's object (or the bare object) to the failing value, in the
   * payload's own terms: `consignor.postalAddress.tradeAddressCountryId`; `actor.…`/`target.…` for
   * the envelope; null for a rule on the payload as a whole. */
  path: string | null;
  message: string;
  severity: Severity;
  /** The shape holding the rule, e.g. `dsh:ConsignmentShape-identifier` (shapes/*.ttl). */
  sourceShape: string;
  /** The offending value as written, when there is one. */
  value: string | null;
}

export interface ValidationReport {
  /** True when no result has severity Violation. Warnings (an unrecognised event typeCode) do not
   * block a payload; the RDF report's sh:conforms says the same. */
  conforms: boolean;
  results: ValidationResult[];
  /** Whether a Violation is a missing required value (sh:minCount): spec 7.1 answers those 400, not 422. */
  missingRequired: boolean;
  /** The sh:ValidationReport as RDF/JS quads, for Turtle/JSON-LD answers. */
  reportQuads(): Quad[];
}

export interface PayloadValidator {
  /** Validates one payload's quads (from toQuads): a whole activity, or a bare Consignment,
   * SupplyChainEvent or Document. Never throws for bad data: problems are results. */
  validate(quads: Quad[]): Promise<ValidationReport>;
}
