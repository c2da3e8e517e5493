import { createHash } from 'node:crypto';
import { GRAPHS, ODRL, RDF_TYPE, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import { iriToString } from '../rdf/terms.js';
import type { ChangeOp } from '../ports/quad-store.js';
import type { PolicySeed } from '../registry/seed.js';

export const POLICY_PREFIX = 'urn:dataspace:policy:';

export interface Policy extends PolicySeed {
  id: string;
  created: string;
}

/** Seed policies get ids derived from their content, so applying the seed again changes nothing. */
export function seedPolicyId(policy: PolicySeed): string {
  const key = JSON.stringify([
    policy.owner,
    policy.role,
    [...policy.countries].sort(),
    [...policy.locations].sort(),
    [...policy.consignments].sort(),
  ]);
  return `${POLICY_PREFIX}seed-${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

/** The node that holds a policy's record literal (policyRecord), under the policy IRI so it is deleted with it. */
export const policyRecordNode = (id: string): string => `${id}#record`;

/** A policy as one JSON literal: what the coverage rule loads at start instead of a row a constraint value. */
export function policyRecord(policy: Policy): string {
  const { id, owner, role, created } = policy;
  // Each value once, as the ODRL triples hold it (a seed file may repeat one).
  const [countries, locations, consignments] = [policy.countries, policy.locations, policy.consignments].map((values) => [
    ...new Set(values),
  ]);
  return JSON.stringify({ id, owner, role, countries, locations, consignments, created });
}

/**
 * A data-sharing policy as an ODRL Set: the owner (assigner) permits `read` to parties of a role,
 * constrained by country or location, optionally narrowed to listed consignments. Nodes are skolem
 * IRIs under the policy IRI so the whole policy can be deleted by subject.
 */
export function policyQuads(policy: Policy): string {
  const p = policy.id;
  const permission = `${p}#permission`;
  const b = new NQuadsBuilder(GRAPHS.policies)
    .iri(p, RDF_TYPE, `${ODRL}Set`)
    .iri(p, `${ODRL}uid`, p)
    .iri(p, `${ODRL}assigner`, policy.owner)
    .literal(p, svc('created'), policy.created, 'http://www.w3.org/2001/XMLSchema#dateTime')
    .iri(p, `${ODRL}permission`, permission)
    .iri(permission, `${ODRL}action`, `${ODRL}read`)
    .iri(permission, `${ODRL}assigner`, policy.owner)
    .iri(permission, `${ODRL}target`, `${p}#consignments`)
    .iri(`${p}#consignments`, RDF_TYPE, `${ODRL}AssetCollection`)
    .iri(`${p}#consignments`, svc('publishedBy'), policy.owner);
  const roleConstraint = `${p}#role`;
  b.iri(permission, `${ODRL}constraint`, roleConstraint)
    .iri(roleConstraint, `${ODRL}leftOperand`, svc('assigneeRole'))
    .iri(roleConstraint, `${ODRL}operator`, `${ODRL}eq`)
    .iri(roleConstraint, `${ODRL}rightOperand`, svc(policy.role));
  if (policy.countries.length > 0) {
    const c = `${p}#countries`;
    b.iri(permission, `${ODRL}constraint`, c)
      .iri(c, `${ODRL}leftOperand`, svc('assigneeCountry'))
      .iri(c, `${ODRL}operator`, `${ODRL}isAnyOf`);
    for (const country of policy.countries) b.literal(c, `${ODRL}rightOperand`, country);
  }
  if (policy.locations.length > 0) {
    const c = `${p}#locations`;
    b.iri(permission, `${ODRL}constraint`, c)
      .iri(c, `${ODRL}leftOperand`, svc('routeLocation'))
      .iri(c, `${ODRL}operator`, `${ODRL}isAnyOf`);
    for (const location of policy.locations) b.literal(c, `${ODRL}rightOperand`, location);
  }
  if (policy.consignments.length > 0) {
    const c = `${p}#narrowed`;
    b.iri(permission, `${ODRL}constraint`, c)
      .iri(c, `${ODRL}leftOperand`, svc('consignmentGlobalId'))
      .iri(c, `${ODRL}operator`, `${ODRL}isAnyOf`);
    for (const id of policy.consignments) b.literal(c, `${ODRL}rightOperand`, id);
  }
  // Beside the ODRL, the node's own record of it (not exported: policies-rdf.rq leaves it out).
  b.literal(policyRecordNode(p), svc('policyRecord'), policyRecord(policy));
  return b.toString();
}

const SUFFIXES = ['', '#permission', '#consignments', '#role', '#countries', '#locations', '#narrowed', '#record'];

export function deletePolicyOps(id: string): ChangeOp[] {
  return SUFFIXES.map((suffix) => ({
    op: 'deleteMatching',
    subject: iriToString(`${id}${suffix}`),
    predicate: null,
    object: null,
    graph: GRAPHS.policies,
  }));
}
