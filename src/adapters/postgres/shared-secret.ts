import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { statement } from './statements.js';

/**
 * The JWT secret every replica signs and checks with: JWT_SECRET when given; otherwise one made by the
 * first replica to ask and kept in PostgreSQL (a token one replica issued is valid on the others).
 */
export async function sharedJwtSecret(pool: pg.Pool): Promise<string> {
  await pool.query(statement('secret-make'), ['jwt', randomBytes(48).toString('base64url')]);
  const { rows } = await pool.query<{ value: string }>(statement('secret-read'), ['jwt']);
  return rows[0]!.value;
}
