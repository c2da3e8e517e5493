import type { Response } from 'express';
import type { IssuedToken } from '../../core/auth/tokens.js';
import { ACCESS_TOKEN_COOKIE } from './authenticate.js';

const cookieOptions = (secure: boolean) => ({ httpOnly: true, path: '/', sameSite: 'strict' as const, secure });

/** The session cookie of login and refresh: HttpOnly, SameSite=Strict, expiring with its token. */
export function setTokenCookie(res: Response, issued: IssuedToken, secure: boolean): void {
  res.cookie(ACCESS_TOKEN_COOKIE, issued.token, { ...cookieOptions(secure), expires: new Date(issued.expiry) });
}

export function clearTokenCookie(res: Response, secure: boolean): void {
  res.clearCookie(ACCESS_TOKEN_COOKIE, cookieOptions(secure));
}
