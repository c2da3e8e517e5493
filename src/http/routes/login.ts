import { Router } from 'express';
import type { Registry } from '../../registry/registry.js';
import type { TokenService } from '../../auth/tokens.js';
import { ACCESS_TOKEN_COOKIE } from '../authenticate.js';
import { BadRequest, Unauthorized } from '../errors.js';
import { isObject } from '../../activities/envelope.js';
import type { LoginThrottle } from '../../auth/login-throttle.js';
import { error, json, ref, type ApiOperation } from '../api-operation.js';

export interface LoginDeps {
  registry: Registry;
  tokens: TokenService;
  throttle: LoginThrottle;
  secureCookie: boolean;
}

/** POST /authentication/login (spec 4.1): sets the access_token cookie; the body carries only expiry. */
export function loginRoutes({ registry, tokens, throttle, secureCookie }: LoginDeps): Router {
  const router = Router();
  router.post('/authentication/login', async (req, res) => {
    const body: unknown = req.body;
    if (!isObject(body)) throw new BadRequest('The body must be a JSON object {email, password}');
    const { email, password } = body;
    if (typeof email !== 'string' || email.length === 0) throw new BadRequest('email is required and must be a string');
    if (typeof password !== 'string' || password.length === 0) throw new BadRequest('password is required and must be a string');
    throttle.check(email);
    const user = await registry.authenticate(email, password);
    if (!user) {
      throttle.failed(email);
      throw new Unauthorized('Wrong email or password');
    }
    throttle.succeeded(email);
    const issued = tokens.issue({ sub: user.email, org: user.organisation });
    res.cookie(ACCESS_TOKEN_COOKIE, issued.token, {
      httpOnly: true,
      path: '/',
      sameSite: 'strict',
      secure: secureCookie,
      expires: new Date(issued.expiry),
    });
    res.status(200).json({ expiry: issued.expiry });
  });
  return router;
}

/** What the API reference says about this route (src/openapi/). */
export const loginOperations: ApiOperation[] = [{
  method: 'post', path: '/authentication/login', operationId: 'login', tag: 'Authentication', authenticated: false,
  summary: 'Log in: sets the access_token cookie',
  description: 'The token arrives only as an `HttpOnly; SameSite=Strict` cookie; send it back as the cookie or as `Authorization: Bearer`. Failed logins are throttled per email (429).',
  requestBody: { required: true, content: { 'application/json': ref('Login') } },
  responses: {
    200: json('Logged in', ref('LoginAnswer'), { 'Set-Cookie': { description: '`access_token=…; HttpOnly; Path=/; SameSite=Strict`', schema: { type: 'string' } } }),
    400: error('email or password missing or not a string'),
    401: error('Wrong email or password'),
    429: error('Too many failed attempts for this email; retry after Retry-After seconds'),
  },
}];
