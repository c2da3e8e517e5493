import { Router } from 'express';
import type { ClientAccount, Clients } from '../../../core/accounts/clients.js';
import { CLIENT_ID_PATTERN } from '../../../core/registry/seed.js';
import { BadRequest, Conflict, NotFound } from '../../../core/errors.js';
import { refuseUnknown } from '../list-filters.js';
import { isObject } from '../../../core/util/json.js';
import { organisationAdmin } from './organisation-users.js';
import { error, json, pathId, type ApiOperation, type Schema } from '../api-operation.js';

export const ORGANISATION_CLIENTS_PATH = '/supply-chain/data-space/organisation/clients';
/** Key types a client assertion can be checked with (src/core/accounts/client-assertions.ts). */
const KEY_TYPES = new Set(['RSA', 'EC', 'OKP']);

const clientJson = (client: ClientAccount, baseUrl: string) => ({
  clientId: client.clientId,
  authentication: [
    ...(client.secretHash !== undefined ? ['client_secret_basic'] : []),
    ...(client.jwk !== undefined ? ['private_key_jwt'] : []),
  ],
  ...(client.previous && client.previous.expires > Date.now() ? { previousSecretExpires: client.previous.expires } : {}),
  managedBy: client.fromApi ? 'organisation' : 'seed',
  href: `${baseUrl}${ORGANISATION_CLIENTS_PATH}/${encodeURIComponent(client.clientId)}`,
});

/** `{clientId, jwk?}`: a public JWK for private_key_jwt, or none for a generated secret. */
function parseNewClient(body: unknown): { clientId: string; jwk?: Record<string, unknown> } {
  if (!isObject(body)) throw new BadRequest('The body must be a JSON object {clientId, jwk?}');
  const unknown = Object.keys(body).find((k) => k !== 'clientId' && k !== 'jwk');
  if (unknown !== undefined) throw new BadRequest(`Unknown field ${unknown}: the fields are clientId, jwk`);
  if (typeof body.clientId !== 'string' || !CLIENT_ID_PATTERN.test(body.clientId)) {
    throw new BadRequest("clientId must be 3 to 128 letters, digits or . _ : - (iSHARE: the party's EORI)");
  }
  if (body.jwk === undefined) return { clientId: body.clientId };
  const jwk = body.jwk;
  if (!isObject(jwk) || typeof jwk.kty !== 'string' || !KEY_TYPES.has(jwk.kty))
    throw new BadRequest('jwk must be a public JWK with kty RSA, EC or OKP');
  if ('d' in jwk || 'p' in jwk || 'k' in jwk) throw new BadRequest('jwk must be the public key only: never send the private key');
  if (JSON.stringify(jwk).length > 8192) throw new BadRequest('jwk is larger than a public key');
  return { clientId: body.clientId, jwk };
}

/**
 * An organisation admin's machine clients: list, register (a public JWK, or a generated secret shown
 * once), rotate the secret (the old one works for the overlap window), remove. A client of another
 * organisation is answered as missing.
 */
export function organisationClientRoutes({ clients, baseUrl }: { clients: Clients; baseUrl: string }): Router {
  const router = Router();
  const item = `${ORGANISATION_CLIENTS_PATH}/:clientId`;
  const notFound = (id: string) => new NotFound(`No client ${id} in your organisation`);

  router.get(ORGANISATION_CLIENTS_PATH, (req, res) => {
    const admin = organisationAdmin(req);
    refuseUnknown(req, []);
    res.json(clients.ofOrganisation(admin.org.id).map((c) => clientJson(c, baseUrl)));
  });

  router.post(ORGANISATION_CLIENTS_PATH, async (req, res) => {
    const admin = organisationAdmin(req);
    const registered = await clients.register(admin.org.id, parseNewClient(req.body), admin.email);
    if (!registered) throw new Conflict('This clientId is already registered');
    const body = { ...clientJson(registered.client, baseUrl), ...(registered.secret ? { clientSecret: registered.secret } : {}) };
    res.status(201).location(body.href).set('Cache-Control', 'no-store').json(body);
  });

  router.get(item, (req, res) => {
    const admin = organisationAdmin(req);
    const client = clients.get(String(req.params.clientId));
    if (!client || client.organisation !== admin.org.id) throw notFound(String(req.params.clientId));
    res.json(clientJson(client, baseUrl));
  });

  router.post(`${item}/secret`, async (req, res) => {
    const admin = organisationAdmin(req);
    const rotated = await clients.rotateSecret(admin.org.id, String(req.params.clientId), admin.email);
    if (!rotated) throw notFound(String(req.params.clientId));
    res.set('Cache-Control', 'no-store').json({ ...clientJson(rotated.client, baseUrl), clientSecret: rotated.secret });
  });

  router.delete(item, async (req, res) => {
    const admin = organisationAdmin(req);
    if (!(await clients.remove(admin.org.id, String(req.params.clientId), admin.email))) throw notFound(String(req.params.clientId));
    res.status(204).end();
  });
  return router;
}

const CLIENT: Schema = {
  type: 'object',
  required: ['clientId', 'authentication', 'managedBy', 'href'],
  properties: {
    clientId: { type: 'string' },
    authentication: { type: 'array', items: { enum: ['client_secret_basic', 'private_key_jwt'] } },
    previousSecretExpires: {
      type: 'number',
      description: 'Until when (ms since the epoch) the secret before the last rotation still works',
    },
    managedBy: { enum: ['seed', 'organisation'] },
    href: { type: 'string', format: 'uri' },
    clientSecret: { type: 'string', description: 'Only in the answer that made it: it is kept as a hash' },
  },
};
const TAG = 'Organisation accounts';
const ITEM = `${ORGANISATION_CLIENTS_PATH}/{clientId}`;
const clientId = pathId('clientId', "The client's id");
const common = { 401: error('No valid token'), 403: error('The caller is not an administrator of its organisation') };

export const organisationClientOperations: ApiOperation[] = [
  {
    method: 'get',
    path: ORGANISATION_CLIENTS_PATH,
    operationId: 'listOrganisationClients',
    tag: TAG,
    authenticated: true,
    summary: "The machine clients of the caller's organisation (admins only)",
    responses: {
      200: json('The clients', { type: 'array', items: CLIENT }),
      400: error('A query parameter the list does not take'),
      ...common,
    },
  },
  {
    method: 'post',
    path: ORGANISATION_CLIENTS_PATH,
    operationId: 'registerOrganisationClient',
    tag: TAG,
    authenticated: true,
    summary: 'Registers a machine client: with a public JWK (private_key_jwt), or without one to get a secret (client_secret_basic)',
    requestBody: {
      required: true,
      content: {
        'application/json': {
          type: 'object',
          required: ['clientId'],
          properties: { clientId: { type: 'string' }, jwk: { type: 'object' } },
        },
      },
    },
    responses: {
      201: json('Registered; clientSecret is shown this once', CLIENT),
      400: error('Malformed client'),
      ...common,
      409: error('The clientId is taken'),
    },
  },
  {
    method: 'get',
    path: ITEM,
    operationId: 'getOrganisationClient',
    tag: TAG,
    authenticated: true,
    parameters: [clientId],
    summary: "One machine client of the caller's organisation (admins only)",
    responses: { 200: json('The client', CLIENT), ...common, 404: error("No such client in the caller's organisation") },
  },
  {
    method: 'post',
    path: `${ITEM}/secret`,
    operationId: 'rotateOrganisationClientSecret',
    tag: TAG,
    authenticated: true,
    parameters: [clientId],
    summary: 'A new client secret; the previous one keeps working for DATASPACE_CLIENT_SECRET_OVERLAP_SECONDS',
    responses: {
      200: json('The new secret, shown this once', CLIENT),
      ...common,
      404: error("No such client in the caller's organisation"),
    },
  },
  {
    method: 'delete',
    path: ITEM,
    operationId: 'removeOrganisationClient',
    tag: TAG,
    authenticated: true,
    parameters: [clientId],
    summary: 'Removes a machine client and ends its tokens',
    responses: { 204: { description: 'Removed' }, ...common, 404: error("No such client in the caller's organisation") },
  },
];
