import type { Schema } from '../api-operation.js';

/** The small schemas every component is written with. */
export const str: Schema = { type: 'string' };
export const dateTime: Schema = { type: 'string', format: 'date-time' };
export const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });
