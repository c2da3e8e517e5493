import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { hashPassword } from '../../core/auth/passwords.js';
import { parseSeed, SeedError } from '../../core/registry/seed.js';

/**
 * Adds a user to a seed file, with the password's scrypt hash (never the password itself). The seed is
 * what the node applies at every start, so the user can log in after the next start; the file is
 * checked as a whole before it replaces the old one, so a mistake leaves the old one untouched.
 */
export async function addUser(seedPath: string, user: { email: string; organisation: string; password: string }): Promise<void> {
  let document: { users?: unknown[] } & Record<string, unknown>;
  try {
    document = JSON.parse(readFileSync(seedPath, 'utf8'));
  } catch (error) {
    throw new SeedError(`${seedPath} cannot be read as JSON: ${(error as Error).message}`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new SeedError(`${seedPath} must hold a JSON object`);
  const users = Array.isArray(document.users) ? document.users : [];
  const email = user.email.toLowerCase();
  if (users.some((u) => typeof u === 'object' && u !== null && String((u as { email?: unknown }).email).toLowerCase() === email)) {
    throw new SeedError(`${seedPath} already lists ${email}`);
  }
  const next = {
    ...document,
    users: [...users, { email, passwordHash: await hashPassword(user.password), organisation: user.organisation }],
  };
  parseSeed(next);
  const temporary = `${seedPath}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`);
  renameSync(temporary, seedPath);
}
