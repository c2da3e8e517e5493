import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { ACCESS_TOKEN_COOKIE } from '../../authenticate.js';
import { Forbidden } from '../../../../core/errors.js';
import type { OwnOrigins } from '../../own-origins.js';

export const CSRF_FIELD = '_csrf';

/** The session's token: what authenticated the request, the HttpOnly cookie a cross-site page cannot read. */
function sessionToken(req: Request): string {
  const cookie = (req.cookies as Record<string, unknown> | undefined)?.[ACCESS_TOKEN_COOKIE];
  return typeof cookie === 'string' ? cookie : (req.headers.authorization ?? '');
}

/**
 * The anti-forgery token of a session: a hash of its access token. A page on another site can neither
 * read the cookie nor this value, so it cannot fill in a form that changes anything; the token needs
 * no server state and lives exactly as long as the session.
 */
export function csrfToken(req: Request): string {
  return createHash('sha256')
    .update(`csrf\n${sessionToken(req)}`)
    .digest('base64url');
}

/** Refuses a state-changing console request from another origin or without the session's token (403). */
export function checkCsrf(req: Request, origins: OwnOrigins): void {
  // Browsers send Origin on every form POST; without one the request is not from a browser page.
  if (!origins.sameOrigin(req)) throw new Forbidden('This form was sent from another site');
  const sent = (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD];
  const expected = Buffer.from(csrfToken(req));
  if (typeof sent !== 'string' || sent.length !== expected.length || !timingSafeEqual(Buffer.from(sent), expected)) {
    throw new Forbidden("The form's anti-forgery token is missing or stale: reload the page and try again");
  }
}
