import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Sessions } from '../../../core/accounts/sessions.js';
import { HttpError } from '../../../core/errors.js';
import { principalOf } from '../authenticate.js';
import { clearTokenCookie, setTokenCookie } from '../token-cookie.js';
import { error, json, type ApiOperation, type Schema } from '../api-operation.js';

export interface SessionRouteDeps {
  authenticate: RequestHandler;
  sessions: Sessions;
  secureCookie: boolean;
}

export const LOGOUT_PATH = '/authentication/logout';
export const REFRESH_PATH = '/authentication/refresh';

/** Authenticates when the request's token is good; a missing or dead token leaves it anonymous. */
function optionally(authenticate: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // A refusal comes thrown (no token form) or passed on (a token that does not verify): either way, on without a principal.
    const onward = (error?: unknown) =>
      error === undefined || (error instanceof HttpError && error.status === 401) ? next() : next(error);
    try {
      authenticate(req, res, onward);
    } catch (error) {
      onward(error);
    }
  };
}

/**
 * GET (or POST) /authentication/logout and /authentication/refresh, as the TWIN node offers them.
 * Logout ends the request's token at once (the denylist, src/core/accounts/revoked-tokens.ts) and clears
 * the cookie; with no valid token there is nothing to end and the cookie is cleared all the same.
 * Refresh answers a fresh token in the account's current epoch with the cookie rules of login; the
 * token is in the body only for a caller that sent it as Bearer (a cookie session keeps it HttpOnly).
 */
export function sessionRoutes({ authenticate, sessions, secureCookie }: SessionRouteDeps): Router {
  const router = Router();
  const logout = async (req: Request, res: Response) => {
    if (req.principal) await sessions.logout(req.principal);
    clearTokenCookie(res, secureCookie);
    res.set('Cache-Control', 'no-store').status(204).end();
  };
  router.get(LOGOUT_PATH, optionally(authenticate), logout);
  router.post(LOGOUT_PATH, optionally(authenticate), logout);
  const refresh = async (req: Request, res: Response) => {
    const issued = await sessions.refresh(principalOf(req));
    setTokenCookie(res, issued, secureCookie);
    const bearer = req.headers.authorization !== undefined;
    res
      .set('Cache-Control', 'no-store')
      .status(200)
      .json(bearer ? { token: issued.token, expiry: issued.expiry } : { expiry: issued.expiry });
  };
  router.get(REFRESH_PATH, authenticate, refresh);
  router.post(REFRESH_PATH, authenticate, refresh);
  return router;
}

const REFRESH_ANSWER: Schema = {
  type: 'object',
  required: ['expiry'],
  properties: {
    expiry: { type: 'number', description: 'When the new token expires, milliseconds since the Unix epoch' },
    token: { type: 'string', description: 'The new token, only when the request sent its token as `Authorization: Bearer`' },
  },
};
const COOKIE_SET = { 'Set-Cookie': { description: '`access_token=…; HttpOnly; Path=/; SameSite=Strict`', schema: { type: 'string' } } };
const COOKIE_CLEARED = {
  'Set-Cookie': { description: '`access_token=; Expires=Thu, 01 Jan 1970 …`: the cookie is cleared', schema: { type: 'string' } },
};

const logoutOperation = (method: 'get' | 'post'): ApiOperation => ({
  method,
  path: LOGOUT_PATH,
  operationId: method === 'get' ? 'logout' : 'logoutPost',
  tag: 'Authentication',
  authenticated: false,
  summary: 'Log out: ends the token at once and clears the cookie',
  description:
    'The token sent (cookie or Bearer) is refused from the next request on, also after a restart. Without a valid token the cookie is cleared all the same.',
  responses: { 204: { description: 'Logged out', headers: COOKIE_CLEARED } },
});

const refreshOperation = (method: 'get' | 'post'): ApiOperation => ({
  method,
  path: REFRESH_PATH,
  operationId: method === 'get' ? 'refresh' : 'refreshPost',
  tag: 'Authentication',
  authenticated: true,
  summary: 'A fresh token with a new expiry',
  description:
    'Sets the access_token cookie as login does. The body carries the token only when the request sent its token as Bearer. The old token stays valid until its own expiry.',
  responses: { 200: json('A fresh token', REFRESH_ANSWER, COOKIE_SET), 401: error('No valid token') },
});

export const sessionOperations: ApiOperation[] = [
  logoutOperation('get'),
  logoutOperation('post'),
  refreshOperation('get'),
  refreshOperation('post'),
];
