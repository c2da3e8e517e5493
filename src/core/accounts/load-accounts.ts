import type { Logger } from '../logger.js';
import type { QueryBank } from '../queries/query-bank.js';
import type { Seed } from '../registry/seed.js';
import type { QuadStore } from '../ports/quad-store.js';
import { accountAudit, type AccountAudit } from '../auth/account-audit.js';
import { Clients } from './clients.js';
import { RevokedTokens } from './revoked-tokens.js';
import { Users } from './users.js';

export interface Accounts {
  audit: AccountAudit;
  users: Users;
  clients: Clients;
  revoked: RevokedTokens;
}

/** How the accounts are loaded: the secret overlap and quotas from the configuration, and whether this process writes. */
export interface AccountOptions {
  secretOverlapSeconds: number;
  quotas: { users: number; clients: number };
  /** False on a follower of a replica set: the writer applies the seed, a follower only reads. */
  writes: boolean;
}

/**
 * Accounts and the tokens ended before their expiry, in the store beside the registry
 * (docs/accounts.md): loaded, then brought to the seed, which is the operator's source of users and
 * clients. The seed's passwords are checked in the background; a failure is logged, not thrown.
 */
export async function loadAccounts(
  store: QuadStore,
  queries: QueryBank,
  seed: Seed,
  logger: Logger,
  options: AccountOptions,
): Promise<Accounts> {
  const { writes } = options;
  const audit = accountAudit(logger);
  const users = new Users(store, queries, audit, options.quotas.users);
  await users.load();
  if (writes) await users.applySeed(seed.users);
  users
    .seeded()
    .catch((error: unknown) =>
      logger.error("the seed's passwords could not be checked: logins fail until a restart", { error: (error as Error).message }),
    );
  const clients = new Clients(store, queries, audit, options.secretOverlapSeconds, options.quotas.clients);
  await clients.load();
  if (writes) await clients.applySeed(seed.clients);
  const revoked = new RevokedTokens(store, queries);
  await revoked.load(undefined, writes);
  return { audit, users, clients, revoked };
}
