import type { AccountAudit } from '../auth/account-audit.js';
import type { Principal } from '../auth/principal.js';
import type { IssuedToken, TokenService } from '../auth/tokens.js';
import { Unauthorized } from '../errors.js';
import type { Registry } from '../registry/registry.js';
import type { RevokedTokens } from './revoked-tokens.js';

/** What a token is checked against: the account's state as held in memory. */
export interface TokenAccount {
  organisation: string;
  epoch: string;
  disabled: boolean;
  admin: boolean;
}

/** A kind of account tokens are issued to: users, or machine clients. */
export interface AccountBook {
  get(id: string): TokenAccount | undefined;
  /** A new token epoch: every token of the account ends. */
  endAllTokens(id: string, by: string): Promise<void>;
}

export interface SessionDeps {
  tokens: TokenService;
  users: AccountBook;
  /** Machine clients, when the node has any kind of them. */
  clients?: AccountBook;
  revoked: RevokedTokens;
  registry: Registry;
  audit: AccountAudit;
}

/** The denylist's key of an account: users and clients have separate name spaces. */
const accountKey = (principal: Pick<Principal, 'email' | 'client'>): string => `${principal.client ? 'client' : 'user'}:${principal.email}`;

/**
 * Tokens and the accounts they stand for. A token is accepted while its signature and expiry hold
 * (TokenService, cached), its id is not on the logout denylist, and its account still exists in the
 * same organisation, is not disabled and is in the token epoch the token was issued in: a removed or
 * disabled account, a new password and a logout end tokens at the next request. Each check is a Map
 * lookup in memory; the state behind them is in the store (docs/accounts.md).
 */
export class Sessions {
  constructor(private readonly deps: SessionDeps) {}

  /** The principal of a token, or Unauthorized saying why not. */
  principal(token: string): Principal {
    const claims = this.deps.tokens.verify(token);
    if (!claims) throw new Unauthorized('The token is invalid or has expired');
    if (this.deps.revoked.has(claims.jti)) throw new Unauthorized('The token was ended by a logout: log in again');
    const account = this.book(claims.client === true)?.get(claims.sub);
    if (!account || account.organisation !== claims.org) throw new Unauthorized('The token names an account that is not registered here');
    if (account.disabled || account.epoch !== claims.gen) throw new Unauthorized('The token was revoked: log in again');
    const org = this.deps.registry.organisation(account.organisation);
    if (!org) throw new Unauthorized('The token names an account that is not registered here');
    const principal: Principal = { email: claims.sub, org, admin: account.admin, token: { jti: claims.jti, expiry: claims.expiry } };
    if (claims.client) principal.client = true;
    return principal;
  }

  /** A new token for an account, in its current epoch. */
  issue(id: string, account: TokenAccount, client = false): IssuedToken {
    return this.deps.tokens.issue({ sub: id, org: account.organisation, gen: account.epoch, ...(client ? { client: true as const } : {}) });
  }

  /** A fresh token for the caller's account (refresh); the caller's own token stays valid until its expiry. */
  refresh(principal: Principal): IssuedToken {
    const account = this.book(principal.client === true)?.get(principal.email);
    if (!account) throw new Unauthorized('The token names an account that is not registered here');
    return this.issue(principal.email, account, principal.client === true);
  }

  private book(client: boolean): AccountBook | undefined {
    return client ? this.deps.clients : this.deps.users;
  }

  get tokenLifetimeSeconds(): number {
    return this.deps.tokens.lifetimeSeconds;
  }

  /**
   * Ends the caller's token at once. Past the denylist's bound for the account (or in all), every token
   * of the account ends instead, which needs no entry: the caller logs in again on its other devices.
   */
  async logout(principal: Principal): Promise<void> {
    if (!principal.token) return;
    const key = accountKey(principal);
    const outcome = await this.deps.revoked.revoke(principal.token.jti, key, principal.token.expiry);
    if (outcome === 'full') {
      await this.book(principal.client === true)?.endAllTokens(principal.email, principal.email);
      await this.deps.revoked.forgetAccount(key);
    }
    this.deps.audit({
      kind: 'token',
      action: 'logout',
      account: principal.email,
      organisation: principal.org.id,
      by: principal.email,
      tokensEnded: outcome === 'full',
    });
  }
}
