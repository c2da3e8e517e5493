import express, { Router, type Request } from 'express';
import type { Sessions } from '../../../core/accounts/sessions.js';
import type { ClientAccount, Clients } from '../../../core/accounts/clients.js';
import { AssertionRefused, assertedClient, type ClientAssertions } from '../../../core/accounts/client-assertions.js';
import { OAuthError } from '../../../core/errors.js';
import type { ApiOperation, Schema } from '../api-operation.js';

export const TOKEN_PATH = '/authentication/token';
/** How the token request's form is read (app.ts reads it first, within the body time-out). */
export const TOKEN_FORM = { extended: false, limit: '16kb', parameterLimit: 20 };
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export interface TokenRouteDeps {
  clients: Clients;
  sessions: Sessions;
  assertions: ClientAssertions;
}

const invalidClient = (description: string, basic: boolean) =>
  new OAuthError(401, 'invalid_client', description, basic ? { 'WWW-Authenticate': 'Basic realm="token", charset="UTF-8"' } : undefined);

/** client_id and client_secret of `Authorization: Basic`, each form-urlencoded first (RFC 6749 section 2.3.1). */
function basicCredentials(req: Request): { id: string; secret: string } | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 1) throw invalidClient('The Authorization header must be Basic base64(client_id:client_secret)', true);
  try {
    const form = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
    return { id: form(decoded.slice(0, colon)), secret: form(decoded.slice(colon + 1)) };
  } catch {
    throw invalidClient('The Basic credentials are not form-urlencoded', true);
  }
}

/**
 * POST /authentication/token: OAuth 2.0 client credentials (RFC 6749 section 4.4) for machine
 * clients, authenticated by client_secret_basic or private_key_jwt (RFC 7523). The access token is
 * the node's own, for the client's organisation, and works as a Bearer token on every route under
 * the same roles and policies as a user of that organisation. Errors in the OAuth form.
 */
export function tokenRoutes({ clients, sessions, assertions }: TokenRouteDeps): Router {
  const router = Router();
  const form = express.urlencoded(TOKEN_FORM);
  router.post(TOKEN_PATH, form, async (req, res) => {
    if (!req.is('application/x-www-form-urlencoded'))
      throw new OAuthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded');
    const body = (req.body ?? {}) as Record<string, unknown>;
    const field = (name: string): string | undefined => (typeof body[name] === 'string' ? body[name] : undefined);
    const basic = basicCredentials(req);
    const assertion = field('client_assertion');
    if (basic && assertion !== undefined)
      throw new OAuthError(400, 'invalid_request', 'Use one client authentication method, not Basic and client_assertion together');
    const grant = field('grant_type');
    if (grant === undefined) throw new OAuthError(400, 'invalid_request', 'grant_type is required');
    if (grant !== 'client_credentials')
      throw new OAuthError(
        400,
        'unsupported_grant_type',
        'Only grant_type=client_credentials is served here; people log in at /authentication/login',
      );
    let client: ClientAccount | undefined;
    if (basic) {
      client = clients.get(basic.id);
      if (!client || !clients.checkSecret(client, basic.secret)) throw invalidClient('Unknown client or wrong secret', true);
    } else if (assertion !== undefined) {
      if (field('client_assertion_type') !== JWT_BEARER)
        throw new OAuthError(400, 'invalid_request', `client_assertion_type must be ${JWT_BEARER}`);
      try {
        const id = assertedClient(assertion);
        const named = field('client_id');
        if (named !== undefined && named !== id) throw new AssertionRefused("client_id is not the client_assertion's issuer");
        client = clients.get(id);
        if (!client?.jwk) throw new AssertionRefused('Unknown client, or a client without a registered public key');
        await assertions.verify(assertion, { clientId: id, organisation: client.organisation, jwk: client.jwk });
      } catch (error) {
        if (error instanceof AssertionRefused) throw invalidClient(error.message, false);
        throw error;
      }
    } else {
      throw invalidClient('Authenticate the client: Authorization: Basic, or client_assertion with client_assertion_type', false);
    }
    const issued = await sessions.issue(client.clientId, client, true);
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json({
      access_token: issued.token,
      token_type: 'Bearer',
      expires_in: Math.round((issued.expiry - Date.now()) / 1000),
    });
  });
  return router;
}

const TOKEN_REQUEST: Schema = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: { const: 'client_credentials' },
    client_assertion_type: { const: JWT_BEARER, description: 'With private_key_jwt' },
    client_assertion: {
      type: 'string',
      description:
        "A JWT signed with the client's registered key: iss = sub = client_id, aud = the issuer (DATASPACE_BASE_URL) or this endpoint's URL, exp within 3,600 s, iat not in the future, jti used once",
    },
    client_id: { type: 'string', description: "Optional; must be the assertion's issuer when given" },
    scope: { type: 'string', description: "Accepted and ignored: a client has its organisation's rights" },
  },
};
const TOKEN_ANSWER: Schema = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in'],
  properties: {
    access_token: { type: 'string' },
    token_type: { const: 'Bearer' },
    expires_in: { type: 'integer', description: 'Seconds' },
  },
};
const OAUTH_ERROR: Schema = {
  type: 'object',
  required: ['error', 'error_description'],
  properties: {
    error: { enum: ['invalid_request', 'invalid_client', 'unsupported_grant_type'] },
    error_description: { type: 'string' },
    name: { enum: ['BadRequest', 'UnauthorizedError'] },
    message: { type: 'string' },
  },
};

export const tokenOperations: ApiOperation[] = [
  {
    method: 'post',
    path: TOKEN_PATH,
    operationId: 'clientCredentialsToken',
    tag: 'Authentication',
    authenticated: false,
    summary: "A machine client's access token (OAuth 2.0 client credentials)",
    description:
      "client_secret_basic (`Authorization: Basic`) or private_key_jwt (RFC 7523). The token is a Bearer token for every route, with the rights of a user of the client's organisation. Errors are in the OAuth form (RFC 6749 section 5.2).",
    requestBody: { required: true, content: { 'application/x-www-form-urlencoded': TOKEN_REQUEST } },
    responses: {
      200: { description: 'The access token', content: { 'application/json': TOKEN_ANSWER } },
      400: { description: 'invalid_request or unsupported_grant_type', content: { 'application/json': OAUTH_ERROR } },
      401: {
        description:
          'invalid_client: unknown client, wrong secret, or an assertion that is wrong-keyed, expired, too long-lived or replayed',
        content: { 'application/json': OAUTH_ERROR },
      },
    },
  },
];
