import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';

const ALGORITHM = 'HS256' as const;
/** Verified tokens remembered at most; the least recently used is forgotten first. */
const MAX_REMEMBERED = 10_000;

export interface TokenClaims {
  /** The user's email. */
  sub: string;
  /** The user's organisation DID. */
  org: string;
}

export interface IssuedToken {
  token: string;
  /** Milliseconds since the epoch. */
  expiry: number;
}

export class TokenService {
  // A key object made once: jsonwebtoken turns a string secret into one on every call (~0.4 ms each).
  private readonly key: KeyObject;
  /** Tokens verified before, with their claims and expiry (ms). */
  private readonly verified = new LRUCache<string, { claims: TokenClaims; expiry: number }>({ max: MAX_REMEMBERED });

  constructor(secret: string, private readonly lifetimeSeconds: number, private readonly issuer: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  issue(claims: TokenClaims, now = Date.now()): IssuedToken {
    const exp = Math.floor(now / 1000) + this.lifetimeSeconds;
    const token = jwt.sign({ org: claims.org, exp, iat: Math.floor(now / 1000) }, this.key, {
      algorithm: ALGORITHM,
      subject: claims.sub,
      issuer: this.issuer,
    });
    return { token, expiry: exp * 1000 };
  }

  /**
   * Verifies signature (HS256 only: `none` and every other algorithm are refused), expiry and issuer.
   * A token that verified is remembered, exactly as sent, until its expiry: the signature and issuer
   * of the same text cannot change, so a client sending it again skips the HMAC and JSON work.
   */
  verify(token: string, now = Date.now()): TokenClaims | undefined {
    const known = this.verified.get(token);
    if (known) {
      if (now < known.expiry) return known.claims;
      this.verified.delete(token);
    }
    try {
      const payload = jwt.verify(token, this.key, { algorithms: [ALGORITHM], issuer: this.issuer, clockTimestamp: Math.floor(now / 1000) });
      if (typeof payload !== 'object' || typeof payload.sub !== 'string' || typeof payload.org !== 'string') return undefined;
      if (typeof payload.exp !== 'number') return undefined;
      const claims = { sub: payload.sub, org: payload.org };
      this.verified.set(token, { claims, expiry: payload.exp * 1000 });
      return claims;
    } catch {
      return undefined;
    }
  }
}
