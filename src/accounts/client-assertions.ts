import { decodeJwt, errors, importJWK, jwtVerify, type JWK } from 'jose';

/** Signature algorithms a client assertion may use, by key type: pinned, never taken from the token alone. */
const ALGORITHMS: Record<string, string[]> = { RSA: ['RS256', 'PS256'], EC: ['ES256', 'ES384'], OKP: ['EdDSA'] };
/** An assertion lives at most this long (exp − now): RFC 7523 asks for a short life, iSHARE uses 30 s. */
export const MAX_ASSERTION_SECONDS = 300;
/** Seen jti values at most: each needs a valid signature, and each is forgotten when its assertion expires. */
const MAX_SEEN = 100_000;

/** Why an assertion was refused: the token endpoint answers invalid_client with this. */
export class AssertionRefused extends Error {
  override readonly name = 'AssertionRefused';
}

/** The client an assertion claims to come from (iss = sub = client_id), read before its signature is checked. */
export function assertedClient(assertion: string): string {
  let claims;
  try {
    claims = decodeJwt(assertion);
  } catch {
    throw new AssertionRefused('client_assertion is not a JWT');
  }
  if (typeof claims.iss !== 'string' || claims.sub !== claims.iss)
    throw new AssertionRefused('client_assertion must have iss and sub both equal to the client_id');
  return claims.iss;
}

/**
 * private_key_jwt client authentication (RFC 7523 section 3, RFC 7521 section 5.2): the assertion is
 * verified with jose against the client's registered public JWK, algorithms pinned by the key's type;
 * `aud` must be the token endpoint, `exp`, `iat` and `jti` are required, the life short, and a `jti`
 * is accepted once. The replay cache holds each jti until its assertion expires (bounded, in memory);
 * an assertion issued before this process started is refused, so a restart opens no replay window.
 */
export class ClientAssertions {
  private readonly seen = new Map<string, number>();
  private readonly startedAt = Math.floor(Date.now() / 1000);

  constructor(private readonly tokenEndpoint: string) {}

  async verify(assertion: string, clientId: string, jwk: Record<string, unknown>, now = Date.now()): Promise<void> {
    const kty = typeof jwk.kty === 'string' ? jwk.kty : '';
    const algorithms = typeof jwk.alg === 'string' ? (ALGORITHMS[kty] ?? []).filter((a) => a === jwk.alg) : (ALGORITHMS[kty] ?? []);
    if (algorithms.length === 0) throw new AssertionRefused(`The client's registered key (kty ${kty}) has no accepted algorithm`);
    let payload;
    try {
      const header = JSON.parse(Buffer.from(assertion.split('.')[0] ?? '', 'base64url').toString('utf8')) as { alg?: unknown };
      if (typeof header.alg !== 'string' || !algorithms.includes(header.alg))
        throw new AssertionRefused(`client_assertion must be signed with ${algorithms.join(' or ')}`);
      const key = await importJWK(jwk as JWK, header.alg);
      ({ payload } = await jwtVerify(assertion, key, {
        algorithms,
        audience: this.tokenEndpoint,
        issuer: clientId,
        subject: clientId,
        requiredClaims: ['exp', 'iat', 'jti'],
        currentDate: new Date(now),
        clockTolerance: 5,
      }));
    } catch (error) {
      if (error instanceof AssertionRefused) throw error;
      if (error instanceof errors.JWTExpired) throw new AssertionRefused('client_assertion has expired');
      if (error instanceof errors.JWTClaimValidationFailed) throw new AssertionRefused(`client_assertion: ${error.message}`);
      throw new AssertionRefused("client_assertion is not signed by the client's registered key");
    }
    const nowSeconds = Math.floor(now / 1000);
    if (payload.exp! - nowSeconds > MAX_ASSERTION_SECONDS)
      throw new AssertionRefused(`client_assertion must expire within ${MAX_ASSERTION_SECONDS} s`);
    if (payload.iat! < this.startedAt) throw new AssertionRefused('client_assertion was issued before this node started: make a new one');
    this.remember(`${clientId} ${payload.jti!}`, payload.exp! * 1000, now);
  }

  private remember(key: string, expiry: number, now: number): void {
    const until = this.seen.get(key);
    if (until !== undefined && until > now) throw new AssertionRefused('client_assertion was used before (jti replayed)');
    if (this.seen.size >= MAX_SEEN) {
      for (const [k, exp] of this.seen) if (exp <= now) this.seen.delete(k);
      if (this.seen.size >= MAX_SEEN) throw new AssertionRefused('Too many client assertions in flight; try again in a moment');
    }
    this.seen.set(key, expiry + 5_000);
  }
}
