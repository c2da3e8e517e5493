import { Router, type Request } from 'express';
import type { Principal } from '../../activities/principal.js';
import { MalformedPolicy, parsePolicyRequest, policyIri, type Policies } from '../../policy/policies.js';
import type { Policy } from '../../policy/policy-rdf.js';
import { RDF_FORMATS, type RdfFormat } from '../../views/rdf-formats.js';
import type { Offer } from '../negotiate.js';
import { chooseOffer, sendRdf } from '../rdf-response.js';
import { principalOf } from '../authenticate.js';
import { BadRequest, Forbidden, NotFound } from '../errors.js';

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
    // The policies as ODRL for RDF clients (audit, export); JSON stays the default.
    const offer = chooseOffer(req, res, ODRL_OFFERS);
    if ('syntax' in offer) {
      await sendRdf(req, res, await deps.policies.odrlOf(principal.org.id), offer);
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
    if (!await deps.policies.withdraw(principal.org.id, req.params.id)) throw new NotFound(`No policy ${req.params.id} of your organisation`);
    res.status(204).end();
  });

  return router;
}
