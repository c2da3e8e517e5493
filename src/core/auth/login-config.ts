import { integerFrom as integer } from '../settings/read.js';

/** Login throttling and password-check capacity (DATASPACE_LOGIN_*); see docs/security.md. */
export interface LoginConfig {
  /** Failed logins counted per window; every counter starts afresh when its window ends. */
  windowSeconds: number;
  /** Failures allowed for one account from one client address in a window (the owner elsewhere is unaffected). */
  accountAddressFailures: number;
  /** Failures allowed for one account from all addresses together in a window (caps distributed guessing). */
  accountFailures: number;
  /** Failures allowed from one client address over all accounts in a window (caps spraying). */
  addressFailures: number;
  /** Password hashes computed at once: scrypt runs on libuv's 4 threads, which also write and fsync the log. */
  scryptConcurrency: number;
  /** Logins waiting for a password check at most; more are answered 503 at once. */
  scryptQueue: number;
}

export function readLoginConfig(env: NodeJS.ProcessEnv): LoginConfig {
  return {
    windowSeconds: integer(env, 'DATASPACE_LOGIN_WINDOW_SECONDS'),
    accountAddressFailures: integer(env, 'DATASPACE_LOGIN_ACCOUNT_ADDRESS_FAILURES'),
    accountFailures: integer(env, 'DATASPACE_LOGIN_ACCOUNT_FAILURES'),
    addressFailures: integer(env, 'DATASPACE_LOGIN_ADDRESS_FAILURES'),
    scryptConcurrency: integer(env, 'DATASPACE_LOGIN_SCRYPT_CONCURRENCY'),
    scryptQueue: integer(env, 'DATASPACE_LOGIN_SCRYPT_QUEUE'),
  };
}

export const DEFAULT_LOGIN_CONFIG: LoginConfig = readLoginConfig({});
