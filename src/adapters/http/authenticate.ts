import type { NextFunction, Request, Response } from 'express';
import type { Sessions } from '../../core/accounts/sessions.js';
import type { Principal } from '../../core/auth/principal.js';
import { Unauthorized } from '../../core/errors.js';

export const ACCESS_TOKEN_COOKIE = 'access_token';

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}

/** The token from `Authorization: Bearer` (which wins when both are sent) or the access_token cookie. */
function tokenOf(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new Unauthorized('The Authorization header must be "Bearer <token>"');
    return match[1];
  }
  const cookie = (req.cookies as Record<string, unknown> | undefined)?.[ACCESS_TOKEN_COOKIE];
  return typeof cookie === 'string' && cookie.length > 0 ? cookie : undefined;
}

/** Signature, expiry and revocation: Sessions.principal (src/core/accounts/sessions.ts). */
export function authenticate(sessions: Sessions) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const token = tokenOf(req);
    if (!token) throw new Unauthorized('Log in first: send the access_token cookie or an Authorization: Bearer token');
    sessions.principal(token).then((principal) => {
      req.principal = principal;
      next();
    }, next);
  };
}

export function principalOf(req: Request): Principal {
  if (!req.principal) throw new Unauthorized();
  return req.principal;
}
