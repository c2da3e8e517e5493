import type { Logger } from '../logger.js';

/** One change to an account or a machine client, or tokens ended: what a security review asks after. */
export interface AccountChange {
  kind: 'user' | 'client' | 'token';
  /** created, replaced, removed, disabled, enabled, password-reset, admin-granted, secret-rotated, logout, … */
  action: string;
  /** The user's email or the client's id. */
  account: string;
  organisation: string;
  /** Who made the change: an admin's email, a client id, `seed` (the operator's seed at start) or the account itself. */
  by: string;
  /** Whether every token the account held before ends with this change. */
  tokensEnded: boolean;
}

export type AccountAudit = (change: AccountChange) => void;

/** Audit lines for account changes (docs/accounts.md), whichever way they came: the seed, an admin, a logout. */
export function accountAudit(logger: Logger): AccountAudit {
  return (change) => logger.info(`audit: ${change.kind} ${change.action}`, { audit: 'account', ...change });
}
