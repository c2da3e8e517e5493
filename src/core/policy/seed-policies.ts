import type { QueryBank } from '../queries/query-bank.js';
import { deletePolicyOps, policyQuads, seedPolicyId, POLICY_PREFIX } from './policy-rdf.js';
import { GRAPHS, RDF_TYPE, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import type { ChangeOp, QuadStore } from '../ports/quad-store.js';
import type { PolicySeed } from '../registry/seed.js';
import { stamp } from '../rdf/date-times.js';

const SEED_PREFIX = `${POLICY_PREFIX}seed-`;

/**
 * A seed policy's id is a hash of its content, so "this seed entry" and "this content" are the same
 * thing. Applying a seed at start then means, per entry:
 * - withdrawn over the API before (a tombstone, svc:WithdrawnSeedPolicy in the registry graph): stays
 *   withdrawn, however often the node restarts with the same seed;
 * - changed in the seed file: a new content, a new id, so it is applied (the change applies, even when
 *   the old content was withdrawn), and the stored policy of the old content, no longer in the seed, is
 *   removed;
 * - unchanged and stored: left as it is.
 * Policies registered over the API are never touched by a seed.
 */
export async function seedPolicyOps(store: QuadStore, queries: QueryBank, policies: PolicySeed[], now: Date): Promise<ChangeOp[]> {
  const rows = await store.select(queries.text('registry/seed-policy-state'));
  const stored = new Set(rows.filter((r) => r.get('kind')!.value === 'stored').map((r) => r.get('policy')!.value));
  const withdrawn = new Set(rows.filter((r) => r.get('kind')!.value === 'withdrawn').map((r) => r.get('policy')!.value));
  const wanted = new Map(policies.map((p) => [seedPolicyId(p), p]));
  const ops: ChangeOp[] = [];
  for (const [id, policy] of wanted) {
    if (withdrawn.has(id) || stored.has(id)) continue;
    ops.push({ op: 'insert', nquads: policyQuads({ ...policy, id, created: stamp(now) }) });
  }
  for (const id of stored) if (!wanted.has(id)) ops.push(...deletePolicyOps(id));
  return ops;
}

/** Withdrawing a seed policy over the API leaves a tombstone, so the next start does not bring it back. */
export function withdrawalOps(policy: string, now: Date): ChangeOp[] {
  if (!policy.startsWith(SEED_PREFIX)) return [];
  return [
    {
      op: 'insert',
      nquads: new NQuadsBuilder(GRAPHS.registry)
        .iri(policy, RDF_TYPE, svc('WithdrawnSeedPolicy'))
        .literal(policy, svc('withdrawn'), stamp(now), 'http://www.w3.org/2001/XMLSchema#dateTime')
        .toString(),
    },
  ];
}
