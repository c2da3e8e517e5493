import { Router } from 'express';
import { ALGORITHMS } from '../../../core/accounts/client-assertions.js';
import type { ApiOperation } from '../api-operation.js';
import { TOKEN_PATH } from './token.js';

export const OAUTH_METADATA_PATH = '/.well-known/oauth-authorization-server';
/** openid-client's discovery() asks here unless told `algorithm: 'oauth2'`; the same document answers. */
export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';

/**
 * RFC 8414 authorization server metadata: the node's issuer identifier (DATASPACE_BASE_URL), its token
 * endpoint and how a machine client authenticates there. Only what the node does is listed: the
 * client-credentials grant, no authorization endpoint (people log in at /authentication/login), so no
 * response type.
 */
export function oauthMetadata(baseUrl: string): Record<string, unknown> {
  return {
    issuer: baseUrl,
    token_endpoint: `${baseUrl}${TOKEN_PATH}`,
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: [...new Set(Object.values(ALGORITHMS).flat())],
    grant_types_supported: ['client_credentials'],
    response_types_supported: [],
    service_documentation: `${baseUrl}/docs`,
  };
}

/** The metadata at both well-known paths, open to anyone and to any origin like the token endpoint it describes. */
export function oauthMetadataRoutes(baseUrl: string): Router {
  const router = Router();
  const body = JSON.stringify(oauthMetadata(baseUrl));
  for (const path of [OAUTH_METADATA_PATH, OPENID_CONFIGURATION_PATH]) {
    router.get(path, (_req, res) => {
      res.set({ 'cache-control': 'public, max-age=3600', 'access-control-allow-origin': '*' }).type('application/json').send(body);
    });
  }
  return router;
}

const METADATA = {
  type: 'object',
  required: ['issuer', 'token_endpoint', 'token_endpoint_auth_methods_supported', 'grant_types_supported'],
  properties: {
    issuer: { type: 'string', format: 'uri' },
    token_endpoint: { type: 'string', format: 'uri' },
    token_endpoint_auth_methods_supported: { type: 'array', items: { enum: ['client_secret_basic', 'private_key_jwt'] } },
    token_endpoint_auth_signing_alg_values_supported: { type: 'array', items: { type: 'string' } },
    grant_types_supported: { type: 'array', items: { const: 'client_credentials' } },
  },
};

const metadataOperation = (path: string, operationId: string, summary: string): ApiOperation => ({
  method: 'get',
  path,
  operationId,
  tag: 'Authentication',
  authenticated: false,
  summary,
  description:
    "`issuer` is DATASPACE_BASE_URL; a client assertion's `aud` may name it or the token endpoint. Open to anyone, cached for an hour.",
  responses: { 200: { description: 'The metadata', content: { 'application/json': METADATA } } },
});

export const oauthMetadataOperations: ApiOperation[] = [
  metadataOperation(OAUTH_METADATA_PATH, 'oauthAuthorizationServerMetadata', 'OAuth 2.0 authorization server metadata (RFC 8414)'),
  metadataOperation(
    OPENID_CONFIGURATION_PATH,
    'openidConfiguration',
    'The same metadata at the OpenID discovery path, for clients that look there first',
  ),
];
