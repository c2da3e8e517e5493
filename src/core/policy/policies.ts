import { randomUUID } from 'node:crypto';
import type { Quad } from '@rdfjs/types';
import type { QueryBank } from '../queries/query-bank.js';
import { iri } from '../queries/query-bank.js';
import { SVC, svc } from '../rdf/namespaces.js';
import { isSafeIri } from '../rdf/terms.js';
import { withoutNulls } from '../util/json.js';
import type { QuadStore } from '../ports/quad-store.js';
import { parsePolicy, SeedError, type PolicySeed } from '../registry/seed.js';
import { POLICIES_CHANGED, policyRegistered, policyWithdrawn } from '../catalog/change-notes.js';
import { PayloadTooLarge } from '../errors.js';
import { DEFAULT_QUOTAS } from '../quotas/quota-config.js';
import { seedPolicyOps, withdrawalOps } from './seed-policies.js';
import { deletePolicyOps, POLICY_PREFIX, policyQuads, type Policy } from './policy-rdf.js';
import { commitDurably } from '../store/commit-durably.js';
import { stamp } from '../rdf/date-times.js';
import { systemClock, type Clock } from '../ports/clock.js';

/** A request body that is not a policy; the message says what to fix. */
export class MalformedPolicy extends Error {
  override readonly name = 'MalformedPolicy';
}

const FIELDS = new Set(['role', 'countries', 'locations', 'consignments']);

/** Checks a policy sent over HTTP: `{role, countries?, locations?, consignments?}` and nothing else. */
export function parsePolicyRequest(body: unknown): Omit<PolicySeed, 'owner'> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new MalformedPolicy('The policy must be a JSON object');
  const entry = withoutNulls(body as Record<string, unknown>);
  const unknown = Object.keys(entry).filter((key) => !FIELDS.has(key));
  if (unknown.length > 0)
    throw new MalformedPolicy(`Unknown policy field(s) ${unknown.join(', ')}; a policy has role, countries, locations and consignments`);
  if (Array.isArray(entry.consignments) && entry.consignments.length === 0) {
    throw new MalformedPolicy('policy.consignments is empty: omit it to cover every consignment, or list the globalIds to cover');
  }
  try {
    const parsed = parsePolicy(entry, 'policy');
    const unique = (values: string[]) => [...new Set(values)];
    return {
      role: parsed.role,
      countries: unique(parsed.countries),
      locations: unique(parsed.locations),
      consignments: unique(parsed.consignments),
    };
  } catch (error) {
    if (error instanceof SeedError) throw new MalformedPolicy(error.message);
    throw error;
  }
}

const LEFT_OPERANDS: Record<string, 'role' | 'countries' | 'locations' | 'consignments'> = {
  [svc('assigneeRole')]: 'role',
  [svc('assigneeCountry')]: 'countries',
  [svc('routeLocation')]: 'locations',
  [svc('consignmentGlobalId')]: 'consignments',
};

/** Policy ids are IRIs; the route also takes the bare uuid after the prefix. */
export function policyIri(id: string): string | undefined {
  const full = id.startsWith(POLICY_PREFIX) ? id : `${POLICY_PREFIX}${id}`;
  return isSafeIri(full) ? full : undefined;
}

/**
 * Data-sharing policies registered by freight forwarders, kept as ODRL in the policies graph. A change
 * is one atomic commit, noted as a policy change for the change feed, so read caches have moved on
 * before the change is acknowledged and a withdrawn policy stops covering the next read.
 */
export class Policies {
  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly clock: Clock = systemClock,
    /** Countries, locations and consignments one policy may name (DATASPACE_QUOTA_POLICY_VALUES; 0: any). */
    private readonly maxValues = DEFAULT_QUOTAS.policyValues,
  ) {}

  /** Applies the seed's policies (see seed-policies.ts); policies registered over the API are left alone. */
  async applySeed(policies: PolicySeed[]): Promise<void> {
    const ops = await seedPolicyOps(this.store, this.queries, policies, this.clock.now());
    if (ops.length > 0) await commitDurably(this.store, { ops, notes: [POLICIES_CHANGED] });
  }

  async register(owner: string, fields: Omit<PolicySeed, 'owner'>): Promise<Policy> {
    const values = fields.countries.length + fields.locations.length + fields.consignments.length;
    if (this.maxValues > 0 && values > this.maxValues) {
      throw new PayloadTooLarge(
        `The policy names ${values} countries, locations and consignments; one policy may name at most ${this.maxValues} (DATASPACE_QUOTA_POLICY_VALUES)`,
      );
    }
    const policy: Policy = { ...fields, owner, id: `${POLICY_PREFIX}${randomUUID()}`, created: stamp(this.clock.now()) };
    // The note says which policy: coverage follows it without reading every policy again.
    await commitDurably(this.store, {
      ops: [{ op: 'insert', nquads: policyQuads(policy) }],
      notes: [policyRegistered(policy)],
      charge: { organisation: owner, policies: 1 },
    });
    return policy;
  }

  /**
   * The owner's policies, in the order registered. From their record literals, one row a policy (a
   * policy may list tens of thousands of locations: read row by row, a few such policies held the event
   * loop seconds; figures: bench/results/2026-12-08-comment-figures.md); policies written before the
   * records are read by their constraint rows.
   */
  async ofOwner(owner: string): Promise<Policy[]> {
    const rows = await this.store.select(this.queries.bind('policy/policy-records-of-owner', { owner: iri(owner) }));
    if (rows.some((row) => !row.has('record'))) return this.ofOwnerByRows(owner);
    const policies = rows.map((row) => JSON.parse(row.get('record')!.value) as Policy);
    for (const policy of policies) for (const values of [policy.countries, policy.locations, policy.consignments]) values.sort();
    return policies.sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private async ofOwnerByRows(owner: string): Promise<Policy[]> {
    const rows = await this.store.select(this.queries.bind('policy/policies-of-owner', { owner: iri(owner) }));
    const byId = new Map<string, Policy>();
    for (const row of rows) {
      const id = row.get('policy')!.value;
      let policy = byId.get(id);
      if (!policy) {
        policy = { id, owner, created: row.get('created')!.value, role: 'borderAgency', countries: [], locations: [], consignments: [] };
        byId.set(id, policy);
      }
      const field = LEFT_OPERANDS[row.get('leftOperand')!.value];
      const value = row.get('value')!.value;
      if (field === 'role') policy.role = value.slice(SVC.length) as Policy['role'];
      else if (field) policy[field].push(value);
    }
    for (const policy of byId.values()) {
      policy.countries.sort();
      policy.locations.sort();
      policy.consignments.sort();
    }
    return [...byId.values()];
  }

  /** The ODRL triples of every policy `owner` registered, for export and audit. */
  async odrlOf(owner: string): Promise<Quad[]> {
    return this.store.construct(this.queries.bind('policy/policies-rdf', { owner: iri(owner) }));
  }

  /** Removes the policy if `owner` registered it; false when there is no such policy of theirs. */
  async withdraw(owner: string, id: string): Promise<boolean> {
    const policy = policyIri(id);
    if (!policy) return false;
    const owns = await this.store.ask(this.queries.bind('policy/policy-owner', { policy: iri(policy), owner: iri(owner) }));
    if (!owns) return false;
    await commitDurably(this.store, {
      ops: [...deletePolicyOps(policy), ...withdrawalOps(policy, this.clock.now())],
      notes: [policyWithdrawn(policy)],
      charge: { organisation: owner, policies: -1 },
    });
    return true;
  }
}
