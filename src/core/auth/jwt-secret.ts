import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The secret of a node without JWT_SECRET: one random secret made once and kept in the data dir (replicas keep theirs in PostgreSQL). */
export function loadJwtSecret(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'jwt-secret');
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(path, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}
