import { Router } from 'express';
import type { NotificationEndpoints } from '../../../core/notify/endpoints.js';
import { isObject, withoutNulls } from '../../../core/util/json.js';
import { checkNotificationUrl } from '../../../core/registry/seed.js';
import { generateSecret, secretProblem } from '../../../core/notify/signing.js';
import { principalOf } from '../authenticate.js';
import { BadRequest } from '../../../core/errors.js';
import { error, json, ref, type ApiOperation } from '../api-operation.js';

export interface NotificationRouteDeps {
  endpoints: NotificationEndpoints;
  /** Called after an organisation's endpoint changed, so its pending signals go to the new address without waiting. */
  changed: (organisation: string) => void;
}

const PATH = '/supply-chain/data-space/notification-endpoint';
const MAX_URL_LENGTH = 2048;

function checkUrl(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw new BadRequest('url is required: the http(s) address signals are POSTed to');
  if (value.length > MAX_URL_LENGTH) throw new BadRequest(`url must be at most ${MAX_URL_LENGTH} characters`);
  if (!checkNotificationUrl(value) || /\s/.test(value)) throw new BadRequest('url must be an absolute http or https URL');
  const url = new URL(value);
  // fetch refuses URLs with credentials; a secret belongs in `secret`, where it signs instead of travelling.
  if (url.username !== '' || url.password !== '') throw new BadRequest('url must not carry a user name or password');
  return value;
}

/** The caller's own notification endpoint: where its signals go and the secret they are signed with. */
export function notificationRoutes(deps: NotificationRouteDeps): Router {
  const router = Router();

  router.get(PATH, (req, res) => {
    const endpoint = deps.endpoints.of(principalOf(req).org.id);
    res.json({ ...(endpoint?.url === undefined ? {} : { url: endpoint.url }), hasSecret: endpoint?.secret !== undefined });
  });

  router.put(PATH, async (req, res) => {
    const { org } = principalOf(req);
    if (!isObject(req.body)) throw new BadRequest('The body must be a JSON object {url, secret?}');
    const body = withoutNulls(req.body);
    const unknown = Object.keys(body).filter((k) => k !== 'url' && k !== 'secret');
    if (unknown.length > 0) throw new BadRequest(`Unknown field(s) ${unknown.join(', ')}; expected {url, secret?}`);
    const url = checkUrl(body.url);
    const refused = await deps.endpoints.refusal(new URL(url));
    if (refused) throw new BadRequest(refused);
    let secret = deps.endpoints.of(org.id)?.secret;
    let generated: string | undefined;
    if (body.secret !== undefined) {
      if (typeof body.secret !== 'string') throw new BadRequest('secret must be a string "whsec_<base64 key>"');
      const problem = secretProblem(body.secret);
      if (problem) throw new BadRequest(problem);
      secret = body.secret;
    } else if (secret === undefined) {
      // Signals are always signed: an endpoint registered without a secret gets one, shown this once.
      secret = generated = generateSecret();
    }
    await deps.endpoints.register(org.id, { url, secret });
    deps.changed(org.id);
    res.json({ url, hasSecret: true, ...(generated ? { secret: generated } : {}) });
  });

  return router;
}

export const notificationOperations: ApiOperation[] = [
  {
    method: 'get',
    path: PATH,
    operationId: 'getNotificationEndpoint',
    tag: 'Signals',
    authenticated: true,
    summary: "Where the caller's signals go",
    responses: {
      200: json('The endpoint (url null when none is registered); the secret is never shown again', ref('NotificationEndpoint')),
    },
  },
  {
    method: 'put',
    path: PATH,
    operationId: 'putNotificationEndpoint',
    tag: 'Signals',
    authenticated: true,
    summary: "Register or change the caller's notification endpoint",
    requestBody: { required: true, content: { 'application/json': ref('NotificationEndpointRequest') } },
    responses: {
      200: json('Registered; a generated secret is in the body this once', ref('NotificationEndpoint')),
      400: error('A malformed url or secret, or an unknown field'),
    },
  },
];
