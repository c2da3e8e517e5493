import { integerFrom, settingDefault } from '../settings/read.js';

/** One bound: the variable that sets it, its default, and what it counts (for messages and docs). */
export interface QuotaBound {
  variable: string;
  fallback: number;
  /** What is counted, as in "a quota of 100 data-sharing policies". */
  counts: string;
}

/**
 * Every per-organisation bound on what the node stores, in one table: the gate checks them
 * (commit-gate.ts), the configuration reads them, docs/configuration.md and the README list them.
 * 0 turns a bound off.
 */
export const QUOTA_BOUNDS = {
  consignments: {
    variable: 'DATASPACE_QUOTA_CONSIGNMENTS',
    fallback: settingDefault('DATASPACE_QUOTA_CONSIGNMENTS'),
    counts: 'consignments created by the organisation',
  },
  graphs: {
    variable: 'DATASPACE_QUOTA_GRAPHS',
    fallback: settingDefault('DATASPACE_QUOTA_GRAPHS'),
    counts: 'events and document revisions added by the organisation',
  },
  bytes: {
    variable: 'DATASPACE_QUOTA_BYTES',
    fallback: settingDefault('DATASPACE_QUOTA_BYTES'),
    counts: "bytes (N-Quads) the organisation's writes added",
  },
  policies: {
    variable: 'DATASPACE_QUOTA_POLICIES',
    fallback: settingDefault('DATASPACE_QUOTA_POLICIES'),
    counts: 'data-sharing policies registered by the organisation',
  },
  policyValues: {
    variable: 'DATASPACE_QUOTA_POLICY_VALUES',
    fallback: settingDefault('DATASPACE_QUOTA_POLICY_VALUES'),
    counts: 'countries, locations and consignments named by one policy',
  },
  consignmentGraphs: {
    variable: 'DATASPACE_QUOTA_CONSIGNMENT_GRAPHS',
    fallback: settingDefault('DATASPACE_QUOTA_CONSIGNMENT_GRAPHS'),
    counts: 'events and document revisions the owner added to one consignment',
  },
  consignmentBytes: {
    variable: 'DATASPACE_QUOTA_CONSIGNMENT_BYTES',
    fallback: settingDefault('DATASPACE_QUOTA_CONSIGNMENT_BYTES'),
    counts: "bytes the owner's writes added to one consignment",
  },
  contributions: {
    variable: 'DATASPACE_QUOTA_CONTRIBUTIONS',
    fallback: settingDefault('DATASPACE_QUOTA_CONTRIBUTIONS'),
    counts: 'events other organisations added to one consignment, all together',
  },
  contributionBytes: {
    variable: 'DATASPACE_QUOTA_CONTRIBUTION_BYTES',
    fallback: settingDefault('DATASPACE_QUOTA_CONTRIBUTION_BYTES'),
    counts: 'bytes other organisations added to one consignment, all together',
  },
  contributorGraphs: {
    variable: 'DATASPACE_QUOTA_CONTRIBUTOR_GRAPHS',
    fallback: settingDefault('DATASPACE_QUOTA_CONTRIBUTOR_GRAPHS'),
    counts: 'events one other organisation added to one consignment',
  },
  contributorBytes: {
    variable: 'DATASPACE_QUOTA_CONTRIBUTOR_BYTES',
    fallback: settingDefault('DATASPACE_QUOTA_CONTRIBUTOR_BYTES'),
    counts: 'bytes one other organisation added to one consignment',
  },
  users: {
    variable: 'DATASPACE_QUOTA_USERS',
    fallback: settingDefault('DATASPACE_QUOTA_USERS'),
    counts: 'user accounts of the organisation',
  },
  clients: {
    variable: 'DATASPACE_QUOTA_CLIENTS',
    fallback: settingDefault('DATASPACE_QUOTA_CLIENTS'),
    counts: 'machine clients of the organisation',
  },
} as const satisfies Record<string, QuotaBound>;

/** The refusal of one more account past its bound (core/accounts/users.ts, core/accounts/clients.ts): 507, nothing stored. */
export function accountQuotaMessage(bound: 'users' | 'clients', limit: number): string {
  const { variable, counts } = QUOTA_BOUNDS[bound];
  return `Your organisation has reached its quota of ${limit} ${counts} (${variable}); remove one first. Nothing was stored.`;
}

export type QuotaName = keyof typeof QUOTA_BOUNDS;
export type QuotaConfig = Record<QuotaName, number>;

export function readQuotaConfig(env: NodeJS.ProcessEnv): QuotaConfig {
  const config = {} as QuotaConfig;
  for (const [name, bound] of Object.entries(QUOTA_BOUNDS) as [QuotaName, QuotaBound][]) config[name] = integerFrom(env, bound.variable);
  return config;
}

export const DEFAULT_QUOTAS: QuotaConfig = readQuotaConfig({});
