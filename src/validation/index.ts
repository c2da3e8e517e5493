export { createPayloadValidator } from './payload-validator.js';
export type { PayloadValidatorOptions } from './payload-validator.js';
export type { PayloadValidator, Severity, ValidationReport, ValidationResult } from './types.js';
