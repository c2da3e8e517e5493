import type { Principal } from '../auth/principal.js';
import type { Bound } from '../queries/query-bank.js';
import { iri, list, str } from '../queries/query-bank.js';
import { svc } from '../rdf/namespaces.js';
import type { Organisation } from '../registry/registry.js';

/*
 * What of a principal the coverage rule reads, in one place: the values its queries are bound to and
 * the key under which principals that the rule covers alike share cached decisions. A role that reads
 * another field of its organisation changes both here.
 */

/**
 * The principal as the coverage rule sees it: its organisation, its role, and the country (border
 * agencies) or locations (location operators) a policy must name. Bound as values, so the queries look
 * policies up by them instead of scanning.
 */
export function coverageBindings(principal: Principal): Record<string, Bound> {
  const { id, role, country, locations } = principal.org;
  return {
    org: iri(id),
    role: iri(svc(role)),
    countries: list(role === 'borderAgency' && country ? [str(country)] : []),
    locations: list(role === 'locationOperator' ? locations.map(str) : []),
  };
}

const keys = new WeakMap<Organisation, string>();

/**
 * Everything of the principal that the coverage rule reads (see coverageBindings): principals with the
 * same key are covered alike. The registry hands out one Organisation object per load, so it is built
 * once per organisation.
 */
export function coverageKey(principal: Principal): string {
  const org = principal.org;
  let key = keys.get(org);
  if (key === undefined) {
    const country = org.role === 'borderAgency' ? org.country ?? null : null;
    const locations = org.role === 'locationOperator' ? [...org.locations].sort() : [];
    key = JSON.stringify([org.id, org.role, country, locations]);
    keys.set(org, key);
  }
  return key;
}
