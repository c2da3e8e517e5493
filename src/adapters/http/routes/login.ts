import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Users } from '../../../core/accounts/users.js';
import type { Sessions } from '../../../core/accounts/sessions.js';
import { setTokenCookie } from '../token-cookie.js';
import { BadRequest, PayloadTooLarge, ServiceUnavailable, TooManyRequests, Unauthorized } from '../../../core/errors.js';
import { isObject } from '../../../core/util/json.js';
import { EMAIL_PATTERN } from '../../../core/registry/seed.js';
import { LoginThrottle, type CounterFactory } from '../../../core/auth/login-throttle.js';
import { DEFAULT_LOGIN_CONFIG, type LoginConfig } from '../../../core/auth/login-config.js';
import { scryptBacklog, scryptSlots } from '../../../core/auth/password-checks.js';
import { error, json, ref, type ApiOperation } from '../api-operation.js';

export interface LoginDeps {
  users: Users;
  sessions: Sessions;
  secureCookie: boolean;
  /** Throttle windows and password-check capacity; defaults when absent. */
  config?: LoginConfig;
  /** Where the failed-login counters are kept: this process's memory unless a replica set shares them. */
  counters?: CounterFactory;
}

/** RFC 5321: a path holds at most 256 octets, so an address at most 254 characters. */
export const MAX_EMAIL_LENGTH = 254;
/** Longer passwords only cost scrypt time; no password manager makes one this long. */
export const MAX_PASSWORD_LENGTH = 400;

/** Room for the longest email and password, JSON-escaped, and then some. */
const LOGIN_BODY_LIMIT = 8 * 1024;

/**
 * The login body's own parser, mounted before the general one: a 900 KB email is refused from its
 * Content-Length (or after 8 KiB of a chunked body) instead of being read and parsed first.
 */
export function loginBodyParser(types: string[]) {
  const parse = express.json({ limit: LOGIN_BODY_LIMIT, type: types, strict: false });
  return (req: Request, res: Response, next: NextFunction): void => {
    parse(req, res, (error?: unknown) => {
      if ((error as { type?: string } | undefined)?.type === 'entity.too.large') {
        next(
          new PayloadTooLarge(
            `A login body is at most ${LOGIN_BODY_LIMIT} bytes (email ≤ ${MAX_EMAIL_LENGTH}, password ≤ ${MAX_PASSWORD_LENGTH} characters)`,
          ),
        );
        return;
      }
      next(error);
    });
  };
}

/** POST /authentication/login (spec 4.1): sets the access_token cookie; the body carries only expiry. */
export function loginRoutes({ users, sessions, secureCookie, config = DEFAULT_LOGIN_CONFIG, counters }: LoginDeps): Router {
  const router = Router();
  const throttle = new LoginThrottle(config, counters);
  // The slots are process-wide (one libuv pool); the configured width applies to all of them.
  scryptSlots.concurrency = config.scryptConcurrency;
  router.post('/authentication/login', async (req, res) => {
    const body: unknown = req.body;
    if (!isObject(body)) throw new BadRequest('The body must be a JSON object {email, password}');
    const { email, password } = body;
    if (typeof email !== 'string' || email.length === 0) throw new BadRequest('email is required and must be a string');
    if (typeof password !== 'string' || password.length === 0) throw new BadRequest('password is required and must be a string');
    if (email.length > MAX_EMAIL_LENGTH) throw new BadRequest(`email must be at most ${MAX_EMAIL_LENGTH} characters`);
    // Spec 4.1/7.2: a malformed field is 400; only a well-formed email can be a wrong one (401).
    if (!EMAIL_PATTERN.test(email)) throw new BadRequest('email is not an email address (name@domain)');
    if (password.length > MAX_PASSWORD_LENGTH) throw new BadRequest(`password must be at most ${MAX_PASSWORD_LENGTH} characters`);
    if (scryptBacklog() >= config.scryptConcurrency + config.scryptQueue) {
      throw new ServiceUnavailable('Too many logins are being checked right now; try again in a moment', 1);
    }
    // The client's address as the trusted proxies (DATASPACE_TRUSTED_PROXIES) report it.
    const address = req.ip;
    const throttled = await throttle.attempt(email, address);
    if (throttled) {
      const who = throttled.limit === 'address' ? 'from your address' : 'for this account';
      throw new TooManyRequests(
        throttled.busy
          ? `Too many logins ${who} are being checked at once; try again in ${throttled.retryAfterSeconds} s`
          : `Too many failed logins ${who}; try again in ${throttled.retryAfterSeconds} s`,
        throttled.retryAfterSeconds,
      );
    }
    const outcome = await users.authenticate(email, password).catch(async (error: unknown) => {
      await throttle.abandoned(email, address);
      throw error;
    });
    if ('refused' in outcome) {
      throttle.failed(email, address);
      throw new Unauthorized(
        outcome.refused === 'disabled' ? 'This account is disabled: ask an administrator of your organisation' : 'Wrong email or password',
      );
    }
    await throttle.succeeded(email, address);
    const issued = await sessions.issue(outcome.user.email, outcome.user);
    setTokenCookie(res, issued, secureCookie);
    res.status(200).json({ expiry: issued.expiry });
  });
  return router;
}

/** What the API reference says about this route (src/adapters/http/openapi/). */
export const loginOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/authentication/login',
    operationId: 'login',
    tag: 'Authentication',
    authenticated: false,
    summary: 'Log in: sets the access_token cookie',
    description:
      'The token arrives only as an `HttpOnly; SameSite=Strict` cookie; send it back as the cookie or as `Authorization: Bearer`. Failed logins are throttled per email (429).',
    requestBody: { required: true, content: { 'application/json': ref('Login') } },
    responses: {
      200: json('Logged in', ref('LoginAnswer'), {
        'Set-Cookie': { description: '`access_token=…; HttpOnly; Path=/; SameSite=Strict`', schema: { type: 'string' } },
      }),
      400: error('email or password missing, not a string, or email not an address'),
      401: error('Wrong email or password'),
      429: error('Too many failed attempts for this email; retry after Retry-After seconds'),
    },
  },
];
