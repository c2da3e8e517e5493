import type { CoverageSubject } from './coverage-subject.js';

/*
 * The data-sharing rule in code, written once (docs/policies.md). sparql/policy/coverage-check.rq-fragment
 * and coverage-enumerate.rq-fragment are the same rule in SPARQL; test/property/coverage-agreement.test.ts
 * shows on random policies, consignments and principals that all three give the same answer.
 */

/** A data-sharing policy as the rule reads it (policy-rdf.ts writes it as ODRL). */
export interface CoveragePolicy {
  /** The organisation that shares: its consignments are the ones covered. */
  owner: string;
  /** The role shared with, as the policy names it: a `Role` of core/registry/seed.ts, kept a string (`Role | string` is string). */
  role: string;
  countries: readonly string[];
  locations: readonly string[];
  /** The globalIds the policy is narrowed to; empty when it covers every consignment of the owner. */
  consignments: readonly string[];
  /** `locations` and `consignments` as sets, made once when the policy comes in (coverage-policies.ts): a rule remade after a change then costs the number of policies, not their size. */
  locationSet?: ReadonlySet<string>;
  globalIdSet?: ReadonlySet<string>;
}

/** A consignment as the rule reads it: who owns it, its globalId and the locations on its route. */
export interface CoverageTarget {
  owner: string;
  globalId: string;
  locations: ReadonlySet<string>;
}

/** What one policy lets a subject read: consignments of `owner`, anywhere or at `locations`, all or only `globalIds`. */
export interface Grant {
  owner: string;
  /** Route locations through one of which a consignment must pass; undefined when its route does not matter. */
  locations?: readonly string[];
  /** The globalIds it is narrowed to; undefined when every consignment of the owner. */
  globalIds?: ReadonlySet<string>;
}

const some = (values: readonly string[], wanted: readonly string[]): boolean => values.some((v) => wanted.includes(v));

/**
 * The policies in force. A subject reads a consignment when it owns it,
 * or when a policy of the consignment's owner names the subject's role and either one of its countries
 * or one of its locations that the consignment's route passes through; a policy that lists globalIds
 * covers only those.
 */
export class CoverageRule {
  private readonly bySubject = new Map<string, Grant[]>();

  constructor(private readonly policies: readonly CoveragePolicy[]) {}

  /** What the policies let the subject read beyond its own consignments (the enumerating form of the rule). */
  grants(subject: CoverageSubject): readonly Grant[] {
    const key = JSON.stringify([subject.role, subject.countries, subject.locations]);
    let grants = this.bySubject.get(key);
    if (grants) return grants;
    grants = [];
    for (const policy of this.policies) {
      if (policy.role !== subject.role) continue;
      const globalIds = policy.consignments.length === 0 ? undefined : (policy.globalIdSet ?? new Set(policy.consignments));
      if (some(policy.countries, subject.countries)) grants.push({ owner: policy.owner, globalIds });
      else {
        // The subject's few locations looked up in the policy's, not the other way round: a policy may list ~39k.
        const listed = policy.locationSet ?? new Set(policy.locations);
        const at = subject.locations.filter((l) => listed.has(l));
        if (at.length > 0) grants.push({ owner: policy.owner, locations: at, globalIds });
      }
    }
    // Worked out once per kind of subject: subjects are the registry's organisations, so this stays small.
    this.bySubject.set(key, grants);
    return grants;
  }

  /** Whether the subject may read the consignment (the checking form of the rule). */
  covers(subject: CoverageSubject, target: CoverageTarget): boolean {
    if (target.owner === subject.org) return true;
    return this.grants(subject).some((grant) => grantCovers(grant, target));
  }
}

export function grantCovers(grant: Grant, target: CoverageTarget): boolean {
  if (grant.owner !== target.owner) return false;
  if (grant.globalIds && !grant.globalIds.has(target.globalId)) return false;
  return grant.locations === undefined || grant.locations.some((l) => target.locations.has(l));
}
