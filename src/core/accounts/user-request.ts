import { EMAIL_PATTERN } from '../registry/seed.js';
import { isObject } from '../util/json.js';
import type { UserChange } from './users.js';

/** A request body an organisation admin sent that is not a user or a change of one. */
export class MalformedAccountRequest extends Error {
  override readonly name = 'MalformedAccountRequest';
}

/** RFC 5321: an address is at most 254 characters. */
const MAX_EMAIL = 254;
/** Shorter passwords fall to guessing; longer ones only cost scrypt time (as at login). */
export const MIN_PASSWORD = 10;
const MAX_PASSWORD = 400;
const NEW_USER_FIELDS = new Set(['email', 'password', 'admin']);
const CHANGE_FIELDS = new Set(['password', 'admin', 'disabled']);

function password(value: unknown): string {
  if (typeof value !== 'string' || value.length < MIN_PASSWORD || value.length > MAX_PASSWORD) {
    throw new MalformedAccountRequest(`password must be a string of ${MIN_PASSWORD} to ${MAX_PASSWORD} characters`);
  }
  return value;
}

function flag(body: Record<string, unknown>, name: string): boolean | undefined {
  const value = body[name];
  if (value !== undefined && typeof value !== 'boolean') throw new MalformedAccountRequest(`${name} must be true or false`);
  return value;
}

function onlyFields(body: Record<string, unknown>, allowed: Set<string>): void {
  const unknown = Object.keys(body).filter((k) => !allowed.has(k));
  if (unknown.length > 0) throw new MalformedAccountRequest(`Unknown field ${unknown[0]}: the fields are ${[...allowed].join(', ')}`);
}

/** `{email, password, admin?}`, the email lower-cased as at login. */
export function parseNewUser(body: unknown): { email: string; password: string; admin: boolean } {
  if (!isObject(body)) throw new MalformedAccountRequest('The body must be a JSON object {email, password, admin?}');
  onlyFields(body, NEW_USER_FIELDS);
  const { email } = body;
  if (typeof email !== 'string' || email.length > MAX_EMAIL || !EMAIL_PATTERN.test(email))
    throw new MalformedAccountRequest('email must be an email address');
  return { email: email.toLowerCase(), password: password(body.password), admin: flag(body, 'admin') ?? false };
}

/** `{password?, admin?, disabled?}` with at least one of them. */
export function parseUserChange(body: unknown): UserChange {
  if (!isObject(body)) throw new MalformedAccountRequest('The body must be a JSON object {password?, admin?, disabled?}');
  onlyFields(body, CHANGE_FIELDS);
  const change: UserChange = {};
  if (body.password !== undefined) change.password = password(body.password);
  const admin = flag(body, 'admin');
  const disabled = flag(body, 'disabled');
  if (admin !== undefined) change.admin = admin;
  if (disabled !== undefined) change.disabled = disabled;
  if (Object.keys(change).length === 0) throw new MalformedAccountRequest('Give at least one of password, admin, disabled');
  return change;
}
