import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError } from '../../../../core/errors.js';

export const LOGIN_PATH = '/console/login';

/** Only a path on this node may be the page to return to after logging in: never another site. */
export function safeNext(value: unknown, fallback = '/console'): string {
  return typeof value === 'string' && /^\/(?![/\\])[\x21-\x7e]*$/.test(value) ? value : fallback;
}

/**
 * The API's authentication, for pages: a browser without a valid session is sent to the login page
 * (and back afterwards) instead of being shown a 401 body.
 */
export function pageAuthenticate(authenticate: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // A refusal comes thrown (no token) or passed on (a token that does not verify, checked asynchronously).
    const onward = (error?: unknown) => {
      if (error instanceof HttpError && error.status === 401)
        res.redirect(303, `${LOGIN_PATH}?next=${encodeURIComponent(req.originalUrl)}`);
      else next(error);
    };
    try {
      authenticate(req, res, onward);
    } catch (error) {
      onward(error);
    }
  };
}
