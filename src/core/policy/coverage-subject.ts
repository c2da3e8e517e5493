import type { Principal } from '../auth/principal.js';
import type { Bound } from '../queries/query-bank.js';
import { iri, list, str } from '../queries/query-bank.js';
import { svc } from '../rdf/namespaces.js';
import type { Organisation } from '../registry/registry.js';
import type { Role } from '../registry/seed.js';

/*
 * What of a principal the coverage rule reads, in one place: the subject both forms of the rule take
 * (the SPARQL fragments as bound values, the evaluator in coverage.ts as they are) and the key under
 * which principals that the rule covers alike share cached decisions. A role that reads another field
 * of its organisation changes it here, and both forms follow.
 */

/** The principal as the coverage rule sees it: a policy must name its role and one of its countries or locations. */
export interface CoverageSubject {
  org: string;
  role: Role;
  /** The country a border agency acts for; nothing for other roles. */
  countries: readonly string[];
  /** The locations a location operator runs; nothing for other roles. */
  locations: readonly string[];
}

const subjects = new WeakMap<Organisation, { subject: CoverageSubject; key: string }>();

// The registry hands out one Organisation object per load, so each is worked out once.
function of(org: Organisation): { subject: CoverageSubject; key: string } {
  let found = subjects.get(org);
  if (found === undefined) {
    const subject: CoverageSubject = {
      org: org.id,
      role: org.role,
      countries: org.role === 'borderAgency' && org.country ? [org.country] : [],
      locations: org.role === 'locationOperator' ? [...new Set(org.locations)].sort() : [],
    };
    found = { subject, key: JSON.stringify([subject.org, subject.role, subject.countries, subject.locations]) };
    subjects.set(org, found);
  }
  return found;
}

export function coverageSubject(principal: Principal): CoverageSubject {
  return of(principal.org).subject;
}

/**
 * The subject as the values the SPARQL fragments are bound to, so the queries look policies up by
 * them instead of scanning.
 */
export function coverageBindings(principal: Principal): Record<string, Bound> {
  const { org, role, countries, locations } = coverageSubject(principal);
  return { org: iri(org), role: iri(svc(role)), countries: list(countries.map(str)), locations: list(locations.map(str)) };
}

/** Principals with the same key are covered alike: the key is everything of the subject. */
export function coverageKey(principal: Principal): string {
  return of(principal.org).key;
}
