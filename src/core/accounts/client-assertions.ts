import { decodeJwt, errors, importJWK, jwtVerify, type JWK } from 'jose';
import { ReplayCache } from './replay-cache.js';

/** Signature algorithms a client assertion may use, by key type: pinned, never taken from the token alone. */
export const ALGORITHMS: Record<string, string[]> = { RSA: ['RS256', 'PS256'], EC: ['ES256', 'ES384'], OKP: ['EdDSA'] };
/**
 * An assertion lives at most this long (exp − now). RFC 7523 asks for a short life but names none;
 * the libraries integrators use sign for up to an hour (Authlib: 3,600 s; openid-client: 60 s), so
 * the node takes an hour and keeps each jti that long (the replay cache below).
 */
export const MAX_ASSERTION_SECONDS = 3600;
/** How far a client's clock may run ahead of the node's, for `iat`, `nbf` and `exp`. */
export const CLOCK_SKEW_SECONDS = 10;
/** Seen jti values one organisation's clients may hold at once (DATASPACE_ASSERTION_REPLAY_PER_ORG). */
export const DEFAULT_REPLAY_PER_ORGANISATION = 10_000;

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
 * `aud` must be the issuer or the token endpoint, `exp`, `iat` and `jti` are required, the life at most
 * an hour, `iat` not ahead of the node's clock, and a `jti` is accepted once. The replay cache holds
 * each jti until its assertion expires, within a bound per organisation, so one organisation's clients
 * cannot crowd out another's; an assertion issued before this process started is refused, so a
 * restart opens no replay window.
 */
export class ClientAssertions {
  private readonly seen: ReplayCache;
  private readonly startedAt = Math.floor(Date.now() / 1000);
  private readonly audiences: string[];

  /**
   * `issuer` is the node's issuer identifier (DATASPACE_BASE_URL), which RFC 7523 section 3 lets `aud`
   * name beside the token endpoint's URL; `replayPerOrganisation` bounds each organisation's seen jti.
   */
  constructor(issuer: string, tokenEndpoint: string, replayPerOrganisation = DEFAULT_REPLAY_PER_ORGANISATION) {
    this.audiences = [...new Set([issuer, tokenEndpoint])];
    this.seen = new ReplayCache(replayPerOrganisation);
  }

  async verify(
    assertion: string,
    client: { clientId: string; organisation: string; jwk: Record<string, unknown> },
    now = Date.now(),
  ): Promise<void> {
    const { clientId, jwk } = client;
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
        audience: this.audiences,
        issuer: clientId,
        subject: clientId,
        requiredClaims: ['exp', 'iat', 'jti'],
        currentDate: new Date(now),
        clockTolerance: CLOCK_SKEW_SECONDS,
      }));
    } catch (error) {
      if (error instanceof AssertionRefused) throw error;
      if (error instanceof errors.JWTExpired) throw new AssertionRefused('client_assertion has expired');
      if (error instanceof errors.JWTClaimValidationFailed) throw new AssertionRefused(`client_assertion: ${error.message}`);
      throw new AssertionRefused("client_assertion is not signed by the client's registered key");
    }
    const nowSeconds = Math.floor(now / 1000);
    if (payload.exp! - nowSeconds > MAX_ASSERTION_SECONDS + CLOCK_SKEW_SECONDS)
      throw new AssertionRefused(`client_assertion must expire within ${MAX_ASSERTION_SECONDS} s`);
    // A future iat would outlive the restart check below and the replay window: refused whatever its exp.
    if (payload.iat! > nowSeconds + CLOCK_SKEW_SECONDS)
      throw new AssertionRefused(
        `client_assertion is issued in the future (iat more than ${CLOCK_SKEW_SECONDS} s ahead of the node's clock)`,
      );
    if (payload.iat! < this.startedAt) throw new AssertionRefused('client_assertion was issued before this node started: make a new one');
    const outcome = this.seen.remember(client.organisation, `${clientId} ${payload.jti!}`, (payload.exp! + CLOCK_SKEW_SECONDS) * 1000, now);
    if (outcome === 'replayed') throw new AssertionRefused('client_assertion was used before (jti replayed)');
    if (outcome === 'full')
      throw new AssertionRefused("Too many client assertions in flight for this client's organisation; try again in a moment");
  }
}
