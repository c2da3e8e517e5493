/**
 * SHACL validation of every payload (issue 3).
 *
 * `createPayloadValidator()` parses shapes/*.ttl and compiles them once (about half a second);
 * `validate(quads)` then takes the quads of one payload, as `toQuads` gives them, and resolves to a
 * report. It is asynchronous because shacl-engine is. It never throws for bad data.
 *
 * - A payload is a whole activity (Create/Update with a Consignment; Add with a SupplyChainEvent or
 *   a Document and a Target) or a bare Consignment, SupplyChainEvent or Document.
 * - `conforms` is false when any result is a Violation; Warnings (an event typeCode the interface
 *   does not list) are reported but do not block.
 * - Each result names the rule in the payload's own terms: `path` is the chain of fields from the
 *   activity's object (or the bare object) to the failing value, `consignor.postalAddress.
 *   tradeAddressCountryId`, with `actor.`/`target.` for the envelope; `focusNode` is the object
 *   holding it; `sourceShape` the shape in shapes/*.ttl (`dsh:CountryCode`).
 * - `reportQuads()` is the same report as an sh:ValidationReport.
 *
 * Engine: shacl-engine, chosen over rdf-validate-shacl for speed (bench/validate-engines.ts); both
 * pass the W3C SHACL core suite (test/conformance/shacl-w3c-core.test.ts).
 */
export { createPayloadValidator } from './payload-validator.js';
export type { PayloadValidatorOptions } from './payload-validator.js';
export type { PayloadValidator, Severity, ValidationReport, ValidationResult } from './types.js';
