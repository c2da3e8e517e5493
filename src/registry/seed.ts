import { readFileSync } from 'node:fs';
import type { CallerOrganisation, Role } from '../auth/principal.js';

export type { Role };
export const ROLES: readonly Role[] = ['freightForwarder', 'borderAgency', 'locationOperator'];

export interface OrganisationSeed extends CallerOrganisation {
  notificationUrl?: string;
  notificationSecret?: string;
}

/** A user's credential is a password, or its scrypt hash (`dataspace hash-password`) so the seed holds no plaintext. */
export type UserSeed = { email: string; organisation: string } & ({ password: string; passwordHash?: undefined } | { passwordHash: string; password?: undefined });

export interface PolicySeed {
  owner: string;
  role: 'borderAgency' | 'locationOperator';
  countries: string[];
  locations: string[];
  consignments: string[];
}

export interface Seed {
  organisations: OrganisationSeed[];
  users: UserSeed[];
  policies: PolicySeed[];
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
  const consignments = textList(entry, 'consignments', where, /^urn:uuid:[0-9a-fA-F-]{36}$/);
  if (role === 'borderAgency' && countries.length === 0) throw new SeedError(`${where}: a borderAgency policy needs countries`);
  if (role === 'locationOperator' && locations.length === 0) throw new SeedError(`${where}: a locationOperator policy needs locations`);
  if (role === 'borderAgency' && locations.length > 0) throw new SeedError(`${where}: a borderAgency policy takes countries, not locations`);
  if (role === 'locationOperator' && countries.length > 0) throw new SeedError(`${where}: a locationOperator policy takes locations, not countries`);
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
    if ((entry.password === undefined) === (entry.passwordHash === undefined)) throw new SeedError(`${where} needs exactly one of password and passwordHash`);
    const user: UserSeed = entry.password !== undefined
      ? { email, organisation, password: text(entry, 'password', where) }
      : { email, organisation, passwordHash: text(entry, 'passwordHash', where, PASSWORD_HASH_PATTERN) };
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
  return { organisations, users, policies };
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
