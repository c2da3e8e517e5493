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
  /** A machine client's secret before its last rotation, accepted until `expires` (ms): sessions begun before then end then. */
  previous?: { expires: number };
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
  async principal(token: string): Promise<Principal> {
    const claims = await this.deps.tokens.verify(token);
    if (!claims) throw new Unauthorized('The token is invalid or has expired');
    if (this.deps.revoked.has(claims.jti) || this.deps.revoked.has(claims.sid))
      throw new Unauthorized('The token was ended by a logout: log in again');
    const account = this.book(claims.client === true)?.get(claims.sub);
    if (!account || account.organisation !== claims.org) throw new Unauthorized('The token names an account that is not registered here');
    if (account.disabled || account.epoch !== claims.gen) throw new Unauthorized('The token was revoked: log in again');
    // A rotated secret ends every session begun before the old secret stopped working, once it has.
    const rotated = account.previous?.expires;
    if (rotated !== undefined && Date.now() >= rotated && claims.auth * 1000 < rotated)
      throw new Unauthorized("The client's secret was rotated since this token's session began: request a new token");
    const org = this.deps.registry.organisation(account.organisation);
    if (!org) throw new Unauthorized('The token names an account that is not registered here');
    const principal: Principal = {
      email: claims.sub,
      org,
      admin: account.admin,
      token: { jti: claims.jti, expiry: claims.expiry, sid: claims.sid, auth: claims.auth },
    };
    if (claims.client) principal.client = true;
    return principal;
  }

  /** A new token for an account, in its current epoch: a new session, or one more token of `session`. */
  issue(id: string, account: TokenAccount, client = false, session: { sid?: string; auth?: number } = {}): Promise<IssuedToken> {
    return this.deps.tokens.issue({
      sub: id,
      org: account.organisation,
      gen: account.epoch,
      ...(client ? { client: true as const } : {}),
      ...session,
    });
  }

  /**
   * A fresh token of the caller's session (refresh): the caller's own token stays valid until its
   * expiry, a logout of either ends both, and no refresh outlives the session's longest life.
   */
  async refresh(principal: Principal): Promise<IssuedToken> {
    const account = this.book(principal.client === true)?.get(principal.email);
    if (!account) throw new Unauthorized('The token names an account that is not registered here');
    const { sid, auth } = principal.token ?? {};
    if (auth !== undefined && Date.now() >= (auth + this.deps.tokens.sessionMaxSeconds) * 1000)
      throw new Unauthorized('The session has reached its longest life (DATASPACE_SESSION_MAX_SECONDS): log in again');
    return this.issue(principal.email, account, principal.client === true, { sid, auth });
  }

  private book(client: boolean): AccountBook | undefined {
    return client ? this.deps.clients : this.deps.users;
  }

  get tokenLifetimeSeconds(): number {
    return this.deps.tokens.lifetimeSeconds;
  }

  /**
   * Ends the caller's session at once: its token and every token refreshed from the same login (the
   * session id is listed until the session could last no longer). Past the denylist's bound for the
   * account (or in all), every token of the account ends instead, which needs no entry: the caller logs
   * in again on its other devices.
   */
  async logout(principal: Principal): Promise<void> {
    if (!principal.token) return;
    const key = accountKey(principal);
    const { jti, expiry, sid, auth } = principal.token;
    const outcome =
      sid === undefined || auth === undefined
        ? await this.deps.revoked.revoke(jti, key, expiry)
        : await this.deps.revoked.revoke(sid, key, (auth + this.deps.tokens.sessionMaxSeconds) * 1000);
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
