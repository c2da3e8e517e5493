import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';

const ALGORITHM = 'HS256' as const;
/** Verified tokens remembered at most; the least recently used is forgotten first. */
const MAX_REMEMBERED = 10_000;

export interface TokenClaims {
  /** The user's email, or the machine client's id. */
  sub: string;
  /** The account's organisation DID. */
  org: string;
  /** The account's token epoch when the token was issued: a new epoch ends every older token (src/core/auth/sessions.ts). */
  gen: string;
  /** Set on a machine client's token (OAuth client credentials); a user's has none. */
  client?: true;
  /** The session the token belongs to: the id of the login's first token, carried by every refresh of it. */
  sid?: string;
  /** When the session began (the login), seconds since the epoch: a refresh chain ends a bounded time after it. */
  auth?: number;
}

export interface VerifiedToken extends TokenClaims {
  /** The token's own id, what a logout puts on the denylist. */
  jti: string;
  /** Milliseconds since the epoch. */
  expiry: number;
  sid: string;
  auth: number;
}

export interface IssuedToken {
  token: string;
  jti: string;
  /** Milliseconds since the epoch. */
  expiry: number;
}

export class TokenService {
  // A key object made once, not a string turned into one on every call.
  private readonly key: KeyObject;
  /** Tokens verified before, with their claims and expiry (ms). */
  private readonly verified = new LRUCache<string, VerifiedToken>({ max: MAX_REMEMBERED });

  constructor(
    secret: string,
    readonly lifetimeSeconds: number,
    private readonly issuer: string,
    /** How long a session lasts from its login, refreshes included (DATASPACE_SESSION_MAX_SECONDS). */
    readonly sessionMaxSeconds = 43_200,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  /** A token; given a session (`sid`, `auth`), one more of it, which ends no later than the session. */
  async issue(claims: TokenClaims, now = Date.now()): Promise<IssuedToken> {
    const iat = Math.floor(now / 1000);
    const jti = randomBytes(12).toString('base64url');
    const sid = claims.sid ?? jti;
    const auth = claims.auth ?? iat;
    const exp = Math.min(iat + this.lifetimeSeconds, auth + this.sessionMaxSeconds);
    const token = await new SignJWT({ org: claims.org, gen: claims.gen, ...(claims.client ? { client: true } : {}), sid, auth })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(this.issuer)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(jti)
      .sign(this.key);
    return { token, jti, expiry: exp * 1000 };
  }

  /**
   * Verifies signature (HS256 only: `none` and every other algorithm are refused), expiry and issuer.
   * A token that verified is remembered, exactly as sent, until its expiry: the signature and issuer
   * of the same text cannot change, so a client sending it again skips the HMAC and JSON work.
   */
  async verify(token: string, now = Date.now()): Promise<VerifiedToken | undefined> {
    const known = this.verified.get(token);
    if (known) {
      if (now < known.expiry) return known;
      this.verified.delete(token);
    }
    try {
      // Pinned to HS256; jose refuses an expired token (exp ≤ now, no tolerance) and a token without exp is refused below.
      const { payload } = await jwtVerify(token, this.key, { algorithms: [ALGORITHM], issuer: this.issuer, currentDate: new Date(now) });
      if (typeof payload.sub !== 'string' || typeof payload.org !== 'string') return undefined;
      if (typeof payload.exp !== 'number' || typeof payload.gen !== 'string' || typeof payload.jti !== 'string') return undefined;
      // A token issued before sessions were named is a session of its own, begun when it was issued.
      const auth =
        typeof payload.auth === 'number'
          ? payload.auth
          : typeof payload.iat === 'number'
            ? payload.iat
            : payload.exp - this.lifetimeSeconds;
      const verified: VerifiedToken = {
        sub: payload.sub,
        org: payload.org,
        gen: payload.gen,
        jti: payload.jti,
        expiry: payload.exp * 1000,
        sid: typeof payload.sid === 'string' ? payload.sid : payload.jti,
        auth,
      };
      if (payload.client === true) verified.client = true;
      this.verified.set(token, verified);
      return verified;
    } catch {
      return undefined;
    }
  }
}
