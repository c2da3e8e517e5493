import { Router, type Request } from 'express';
import type { Principal } from '../../../core/auth/principal.js';
import { MalformedPolicy, parsePolicyRequest, policyIri, type Policies } from '../../../core/policy/policies.js';
import type { Policy } from '../../../core/policy/policy-rdf.js';
import { RDF_FORMATS, type RdfFormat } from '../../../core/views/rdf-formats.js';
import type { Offer } from '../negotiate.js';
import { chooseOffer, sendRdf } from '../rdf-response.js';
import { principalOf } from '../authenticate.js';
import { BadRequest, Forbidden, NotFound } from '../../../core/errors.js';
import { refuseUnknown } from '../list-filters.js';
import { error, json, pathId, rdfContent, ref, type ApiOperation } from '../api-operation.js';

export interface PolicyRouteDeps {
  policies: Policies;
  baseUrl: string;
}

const PATH = '/supply-chain/data-space/policies';
const ODRL_OFFERS: readonly (Offer | RdfFormat)[] = [{ mediaType: 'application/json' }, ...RDF_FORMATS];

/** Only freight forwarders publish consignments, so only they say who may read them. */
function forwarder(req: Request): Principal {
  const principal = principalOf(req);
  if (principal.org.role !== 'freightForwarder') {
    throw new Forbidden(`Only freight forwarders register data-sharing policies; ${principal.org.id} is a ${principal.org.role}`);
  }
  return principal;
}

/** Data-sharing policies of the caller's organisation: register, list, withdraw. */
export function policyRoutes(deps: PolicyRouteDeps): Router {
  const router = Router();
  const json = (policy: Policy) => ({
    id: policy.id,
    owner: policy.owner,
    role: policy.role,
    countries: policy.countries,
    locations: policy.locations,
    consignments: policy.consignments,
    created: policy.created,
    href: `${deps.baseUrl}${PATH}/${encodeURIComponent(policy.id)}`,
  });

  router.post(PATH, async (req, res) => {
    const principal = forwarder(req);
    let fields;
    try {
      fields = parsePolicyRequest(req.body);
    } catch (error) {
      if (error instanceof MalformedPolicy) throw new BadRequest(error.message);
      throw error;
    }
    const policy = await deps.policies.register(principal.org.id, fields);
    const body = json(policy);
    res.status(201).location(body.href).json(body);
  });

  router.get(PATH, async (req, res) => {
    const principal = forwarder(req);
    refuseUnknown(req, []);
    // The policies as ODRL for RDF clients (audit, export); JSON stays the default.
    const offer = chooseOffer(req, res, ODRL_OFFERS);
    if ('syntax' in offer) {
      await sendRdf(req, res, await deps.policies.odrlOf(principal.org.id), offer, deps.baseUrl);
      return;
    }
    res.json((await deps.policies.ofOwner(principal.org.id)).map(json));
  });

  router.get(`${PATH}/:id`, async (req, res) => {
    const principal = forwarder(req);
    const policy = (await deps.policies.ofOwner(principal.org.id)).find((p) => p.id === policyIri(req.params.id));
    if (!policy) throw new NotFound(`No policy ${req.params.id} of your organisation`);
    res.json(json(policy));
  });

  router.delete(`${PATH}/:id`, async (req, res) => {
    const principal = forwarder(req);
    // Someone else's policy is answered like a missing one: ids are not probed through this route.
    if (!(await deps.policies.withdraw(principal.org.id, req.params.id)))
      throw new NotFound(`No policy ${req.params.id} of your organisation`);
    res.status(204).end();
  });

  return router;
}

const ODRL_CONTENT = rdfContent(RDF_FORMATS.map((format) => format.mediaType));
const policyId = pathId('id', "The policy's id (urn:dataspace:policy:…) or the uuid after the prefix");
const forwardersOnly = error('The caller is not a freight forwarder');

export const policyOperations: ApiOperation[] = [
  {
    method: 'post',
    path: PATH,
    operationId: 'registerPolicy',
    tag: 'Policies',
    authenticated: true,
    summary: "Grant: let border agencies of some countries, or operators of some locations, read the caller's consignments",
    requestBody: { required: true, content: { 'application/json': ref('PolicyRequest') } },
    responses: {
      201: json('Registered', ref('Policy'), { Location: { description: "The policy's URL", schema: { type: 'string' } } }),
      400: error('Not a policy (the message says which field)'),
      403: forwardersOnly,
      413: error('The policy names more values than DATASPACE_QUOTA_POLICY_VALUES'),
      507: error("The caller's organisation has DATASPACE_QUOTA_POLICIES policies, or the store is full"),
    },
  },
  {
    method: 'get',
    path: PATH,
    operationId: 'listPolicies',
    tag: 'Policies',
    authenticated: true,
    summary: "The caller's policies, as JSON or as ODRL by Accept",
    responses: {
      200: { description: 'The policies', content: { 'application/json': { type: 'array', items: ref('Policy') }, ...ODRL_CONTENT } },
      400: error('A query parameter the list does not take'),
      403: forwardersOnly,
    },
  },
  {
    method: 'get',
    path: `${PATH}/{id}`,
    operationId: 'getPolicy',
    tag: 'Policies',
    authenticated: true,
    summary: "One of the caller's policies",
    parameters: [policyId],
    responses: { 200: json('The policy', ref('Policy')), 403: forwardersOnly, 404: error("No such policy of the caller's organisation") },
  },
  {
    method: 'delete',
    path: `${PATH}/{id}`,
    operationId: 'withdrawPolicy',
    tag: 'Policies',
    authenticated: true,
    summary: "Withdraw one of the caller's policies; the next read no longer sees what it covered",
    parameters: [policyId],
    responses: { 204: { description: 'Withdrawn' }, 403: forwardersOnly, 404: error("No such policy of the caller's organisation") },
  },
];
