import type { QuotaConfig, QuotaName } from './quota-config.js';
import type { OrganisationUsage, Tally } from './usage-records.js';

/** Where a write stands before it is made: its organisation's totals and, for a write to a consignment, that consignment's. */
export interface Standing {
  organisation: OrganisationUsage;
  /** The writer's own consignment: what it has added to it. */
  own?: Tally;
  /** Another organisation's consignment: what this writer has added to it, and what all but the owner have. */
  contributor?: Tally;
  others?: Tally;
}

export interface Adding {
  consignments: number;
  graphs: number;
  policies: number;
  bytes: number;
}

export interface Refusal {
  bound: QuotaName;
  used: number;
  adding: number;
  limit: number;
}

/**
 * The first bound the write would take past its limit, or undefined: the quota rule, pure. Only what
 * the write adds is checked (a withdrawal gives back and is never refused); a bound of 0 is off.
 */
export function quotaRefusal(limits: QuotaConfig, standing: Standing, adding: Adding): Refusal | undefined {
  const { organisation: org, own, contributor, others } = standing;
  const rows: [QuotaName, number | undefined, number][] = [
    ['consignments', org.consignments, adding.consignments],
    ['graphs', org.graphs, adding.graphs],
    ['policies', org.policies, adding.policies],
    ['bytes', org.bytes, adding.bytes],
    ['consignmentGraphs', own?.graphs, adding.graphs],
    ['consignmentBytes', own?.bytes, adding.bytes],
    ['contributorGraphs', contributor?.graphs, adding.graphs],
    ['contributorBytes', contributor?.bytes, adding.bytes],
    ['contributions', others?.graphs, adding.graphs],
    ['contributionBytes', others?.bytes, adding.bytes],
  ];
  for (const [bound, used, add] of rows) {
    const limit = limits[bound];
    if (used === undefined || add <= 0 || limit === 0) continue;
    if (used + add > limit) return { bound, used, adding: add, limit };
  }
  return undefined;
}
