import { integerSetting } from '../config-values.js';

/** One bound: the variable that sets it, its default, and what it counts (for messages and docs). */
export interface QuotaBound {
  variable: string;
  fallback: number;
  /** What is counted, as in "a quota of 100 data-sharing policies". */
  counts: string;
}

const MIB = 1024 * 1024;

/**
 * Every per-organisation bound on what the node stores, in one table: the gate checks them
 * (commit-gate.ts), the configuration reads them, docs/configuration.md and the README list them.
 * 0 turns a bound off.
 */
export const QUOTA_BOUNDS = {
  consignments: { variable: 'DATASPACE_QUOTA_CONSIGNMENTS', fallback: 100_000, counts: 'consignments created by the organisation' },
  graphs: { variable: 'DATASPACE_QUOTA_GRAPHS', fallback: 1_000_000, counts: 'events and document revisions added by the organisation' },
  bytes: { variable: 'DATASPACE_QUOTA_BYTES', fallback: 1024 * MIB, counts: "bytes (N-Quads) the organisation's writes added" },
  policies: { variable: 'DATASPACE_QUOTA_POLICIES', fallback: 100, counts: 'data-sharing policies registered by the organisation' },
  policyValues: {
    variable: 'DATASPACE_QUOTA_POLICY_VALUES',
    fallback: 10_000,
    counts: 'countries, locations and consignments named by one policy',
  },
  consignmentGraphs: {
    variable: 'DATASPACE_QUOTA_CONSIGNMENT_GRAPHS',
    fallback: 5_000,
    counts: 'events and document revisions the owner added to one consignment',
  },
  consignmentBytes: {
    variable: 'DATASPACE_QUOTA_CONSIGNMENT_BYTES',
    fallback: 16 * MIB,
    counts: "bytes the owner's writes added to one consignment",
  },
  contributions: {
    variable: 'DATASPACE_QUOTA_CONTRIBUTIONS',
    fallback: 1_000,
    counts: 'events other organisations added to one consignment, all together',
  },
  contributionBytes: {
    variable: 'DATASPACE_QUOTA_CONTRIBUTION_BYTES',
    fallback: 8 * MIB,
    counts: 'bytes other organisations added to one consignment, all together',
  },
  contributorGraphs: {
    variable: 'DATASPACE_QUOTA_CONTRIBUTOR_GRAPHS',
    fallback: 200,
    counts: 'events one other organisation added to one consignment',
  },
  contributorBytes: {
    variable: 'DATASPACE_QUOTA_CONTRIBUTOR_BYTES',
    fallback: 2 * MIB,
    counts: 'bytes one other organisation added to one consignment',
  },
  users: { variable: 'DATASPACE_QUOTA_USERS', fallback: 1_000, counts: 'user accounts of the organisation' },
  clients: { variable: 'DATASPACE_QUOTA_CLIENTS', fallback: 100, counts: 'machine clients of the organisation' },
} as const satisfies Record<string, QuotaBound>;

/** The refusal of one more account past its bound (accounts/users.ts, accounts/clients.ts): 507, nothing stored. */
export function accountQuotaMessage(bound: 'users' | 'clients', limit: number): string {
  const { variable, counts } = QUOTA_BOUNDS[bound];
  return `Your organisation has reached its quota of ${limit} ${counts} (${variable}); remove one first. Nothing was stored.`;
}

export type QuotaName = keyof typeof QUOTA_BOUNDS;
export type QuotaConfig = Record<QuotaName, number>;

export function readQuotaConfig(env: NodeJS.ProcessEnv): QuotaConfig {
  const config = {} as QuotaConfig;
  for (const [name, bound] of Object.entries(QUOTA_BOUNDS) as [QuotaName, QuotaBound][])
    config[name] = integerSetting(env, bound.variable, bound.fallback, 0);
  return config;
}

export const DEFAULT_QUOTAS: QuotaConfig = readQuotaConfig({});
