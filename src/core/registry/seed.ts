import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CallerOrganisation, Role } from '../auth/principal.js';
import { canonicalGlobalId } from '../catalog/identities.js';

export type { Role };
export const ROLES: readonly Role[] = ['freightForwarder', 'borderAgency', 'locationOperator'];

export interface OrganisationSeed extends CallerOrganisation {
  notificationUrl?: string;
  notificationSecret?: string;
}

/** A user's credential is a password, or its scrypt hash (`dataspace hash-password`) so the seed holds no plaintext. */
export type UserSeed = { email: string; organisation: string; admin?: boolean } & (
  { password: string; passwordHash?: undefined } | { passwordHash: string; password?: undefined }
);

export interface PolicySeed {
  owner: string;
  role: 'borderAgency' | 'locationOperator';
  countries: string[];
  locations: string[];
  consignments: string[];
}

/**
 * A machine client (OAuth 2.0 client credentials): a secret for client_secret_basic, given as its
 * SHA-256 (`sha256:` + base64url) or in clear (at least 32 characters), and/or a public JWK for
 * private_key_jwt. iSHARE names a party's client by its EORI.
 */
export interface ClientSeed {
  clientId: string;
  organisation: string;
  secretHash?: string;
  jwk?: Record<string, unknown>;
}

export interface Seed {
  organisations: OrganisationSeed[];
  users: UserSeed[];
  policies: PolicySeed[];
  clients: ClientSeed[];
}

export class SeedError extends Error {
  override readonly name = 'SeedError';
}

export const DID_PATTERN = /^did:web:[A-Za-z0-9.%-]+(:[A-Za-z0-9._%-]+)*$/;
export const COUNTRY_PATTERN = /^[A-Z]{2}$/;
export const LOCODE_PATTERN = /^[A-Z]{2}[A-Z2-9]{3}$/;
/** What the seed and login take as an email: one @, something on each side, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;
const PASSWORD_HASH_PATTERN = /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/;
const SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]+={0,2}$/;
export const CLIENT_ID_PATTERN = /^[A-Za-z0-9._:-]{3,128}$/;
export const CLIENT_SECRET_HASH_PATTERN = /^sha256:[A-Za-z0-9_-]{43}$/;
/** A client secret in clear is a random string of this length at least: it is kept as a plain SHA-256. */
export const MIN_CLIENT_SECRET = 32;

type Json = Record<string, unknown>;

function object(value: unknown, where: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SeedError(`${where} must be an object`);
  return value as Json;
}

function text(entry: Json, key: string, where: string, pattern?: RegExp): string {
  const value = entry[key];
  if (typeof value !== 'string' || value.length === 0) throw new SeedError(`${where}.${key} must be a non-empty string`);
  if (pattern && !pattern.test(value)) throw new SeedError(`${where}.${key} is malformed: ${JSON.stringify(value)}`);
  return value;
}

function optionalText(entry: Json, key: string, where: string, pattern?: RegExp): string | undefined {
  return entry[key] === undefined ? undefined : text(entry, key, where, pattern);
}

function textList(entry: Json, key: string, where: string, pattern: RegExp): string[] {
  const value = entry[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new SeedError(`${where}.${key} must be an array`);
  return value.map((item, i) => {
    if (typeof item !== 'string' || !pattern.test(item)) throw new SeedError(`${where}.${key}[${i}] is malformed: ${JSON.stringify(item)}`);
    return item;
  });
}

function list(seed: Json, key: string): unknown[] {
  const value = seed[key] ?? [];
  if (!Array.isArray(value)) throw new SeedError(`${key} must be an array`);
  return value;
}

export function checkNotificationUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

function organisation(value: unknown, i: number): OrganisationSeed {
  const where = `organisations[${i}]`;
  const entry = object(value, where);
  const role = text(entry, 'role', where) as Role;
  if (!ROLES.includes(role)) throw new SeedError(`${where}.role must be one of ${ROLES.join(', ')}`);
  const notificationUrl = optionalText(entry, 'notificationUrl', where);
  if (notificationUrl !== undefined && !checkNotificationUrl(notificationUrl)) {
    throw new SeedError(`${where}.notificationUrl must be an http(s) URL`);
  }
  const org: OrganisationSeed = {
    id: text(entry, 'id', where, DID_PATTERN),
    name: text(entry, 'name', where),
    role,
    country: optionalText(entry, 'country', where, COUNTRY_PATTERN),
    locations: textList(entry, 'locations', where, LOCODE_PATTERN),
    notificationUrl,
    notificationSecret: optionalText(entry, 'notificationSecret', where, SECRET_PATTERN),
  };
  if (role === 'borderAgency' && !org.country) throw new SeedError(`${where}: a border agency needs a country`);
  if (role === 'locationOperator' && org.locations.length === 0) throw new SeedError(`${where}: a location operator needs locations`);
  return org;
}

export function parsePolicy(entry: Json, where: string): Omit<PolicySeed, 'owner'> {
  const role = text(entry, 'role', where);
  if (role !== 'borderAgency' && role !== 'locationOperator') {
    throw new SeedError(`${where}.role must be borderAgency or locationOperator`);
  }
  const countries = textList(entry, 'countries', where, COUNTRY_PATTERN);
  const locations = textList(entry, 'locations', where, LOCODE_PATTERN);
  // Compared with the consignments' globalIds, which are kept in canonical form (core/catalog/identities.ts).
  const consignments = textList(entry, 'consignments', where, /^urn:uuid:[0-9a-fA-F-]{36}$/).map(canonicalGlobalId);
  if (role === 'borderAgency' && countries.length === 0) throw new SeedError(`${where}: a borderAgency policy needs countries`);
  if (role === 'locationOperator' && locations.length === 0) throw new SeedError(`${where}: a locationOperator policy needs locations`);
  if (role === 'borderAgency' && locations.length > 0)
    throw new SeedError(`${where}: a borderAgency policy takes countries, not locations`);
  if (role === 'locationOperator' && countries.length > 0)
    throw new SeedError(`${where}: a locationOperator policy takes locations, not countries`);
  return { role, countries, locations, consignments };
}

/** Checks a seed document; the error names the first bad entry. */
export function parseSeed(document: unknown): Seed {
  const seed = object(document, 'the seed');
  const organisations = list(seed, 'organisations').map(organisation);
  const ids = new Set<string>();
  for (const [i, org] of organisations.entries()) {
    if (ids.has(org.id)) throw new SeedError(`organisations[${i}].id ${org.id} is listed twice`);
    ids.add(org.id);
  }
  const emails = new Set<string>();
  const users = list(seed, 'users').map((value, i): UserSeed => {
    const where = `users[${i}]`;
    const entry = object(value, where);
    const email = text(entry, 'email', where, EMAIL_PATTERN).toLowerCase();
    const organisation = text(entry, 'organisation', where);
    if ((entry.password === undefined) === (entry.passwordHash === undefined))
      throw new SeedError(`${where} needs exactly one of password and passwordHash`);
    if (entry.admin !== undefined && typeof entry.admin !== 'boolean') throw new SeedError(`${where}.admin must be true or false`);
    const admin = entry.admin === true;
    const user: UserSeed =
      entry.password !== undefined
        ? { email, organisation, admin, password: text(entry, 'password', where) }
        : { email, organisation, admin, passwordHash: text(entry, 'passwordHash', where, PASSWORD_HASH_PATTERN) };
    if (!ids.has(user.organisation)) throw new SeedError(`${where}.organisation ${user.organisation} is not a listed organisation`);
    if (emails.has(user.email)) throw new SeedError(`${where}.email ${user.email} is listed twice`);
    emails.add(user.email);
    return user;
  });
  const policies = list(seed, 'policies').map((value, i): PolicySeed => {
    const where = `policies[${i}]`;
    const entry = object(value, where);
    const owner = text(entry, 'owner', where);
    const ownerOrg = organisations.find((o) => o.id === owner);
    if (!ownerOrg) throw new SeedError(`${where}.owner ${owner} is not a listed organisation`);
    if (ownerOrg.role !== 'freightForwarder') throw new SeedError(`${where}.owner must be a freight forwarder`);
    return { owner, ...parsePolicy(entry, where) };
  });
  const clientIds = new Set<string>();
  const clients = list(seed, 'clients').map((value, i): ClientSeed => {
    const where = `clients[${i}]`;
    const entry = object(value, where);
    const clientId = text(entry, 'clientId', where, CLIENT_ID_PATTERN);
    const organisation = text(entry, 'organisation', where);
    if (!ids.has(organisation)) throw new SeedError(`${where}.organisation ${organisation} is not a listed organisation`);
    if (clientIds.has(clientId)) throw new SeedError(`${where}.clientId ${clientId} is listed twice`);
    clientIds.add(clientId);
    if (entry.secret !== undefined && entry.secretHash !== undefined) throw new SeedError(`${where} takes secret or secretHash, not both`);
    const secret = optionalText(entry, 'secret', where);
    if (secret !== undefined && secret.length < MIN_CLIENT_SECRET)
      throw new SeedError(`${where}.secret must be at least ${MIN_CLIENT_SECRET} characters`);
    const secretHash =
      secret !== undefined ? hashClientSecret(secret) : optionalText(entry, 'secretHash', where, CLIENT_SECRET_HASH_PATTERN);
    const jwk = entry.jwk === undefined ? undefined : object(entry.jwk, `${where}.jwk`);
    if (jwk !== undefined && (typeof jwk.kty !== 'string' || 'd' in jwk))
      throw new SeedError(`${where}.jwk must be a public JWK (with kty, without d)`);
    if (secretHash === undefined && jwk === undefined) throw new SeedError(`${where} needs a secret, a secretHash or a jwk`);
    return { clientId, organisation, secretHash, jwk };
  });
  return { organisations, users, policies, clients };
}

/** How a client secret is kept: it is random and long, so one SHA-256 suffices (no scrypt at each token request). */
export function hashClientSecret(secret: string): string {
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('base64url')}`;
}

export function readSeedFile(path: string): Seed {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new SeedError(`Cannot read seed ${path}: ${(error as Error).message}`);
  }
  return parseSeed(document);
}
