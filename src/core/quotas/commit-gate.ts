import { QuotaExceeded } from '../errors.js';
import { DelegatingStore } from '../store/delegating-store.js';
import type { Change, Committed, QuadStore } from '../ports/quad-store.js';
import { insertedBytes, type Charge } from './charge.js';
import { QUOTA_BOUNDS, type QuotaConfig } from './quota-config.js';
import { quotaRefusal, type Adding, type Refusal, type Standing } from './quota-rule.js';
import type { Tally, UsageBook } from './usage-records.js';

const CONSIGNMENT_BOUNDS = new Set([
  'consignmentGraphs',
  'consignmentBytes',
  'contributorGraphs',
  'contributorBytes',
  'contributions',
  'contributionBytes',
]);

function refusalMessage(refusal: Refusal): string {
  const { variable, counts } = QUOTA_BOUNDS[refusal.bound];
  const whose = CONSIGNMENT_BOUNDS.has(refusal.bound)
    ? 'This consignment has reached its bound'
    : 'Your organisation has reached its quota';
  return `${whose} of ${refusal.limit} ${counts} (${variable}): ${refusal.used} used, this write adds ${refusal.adding}. Nothing was stored.`;
}

const add = (tally: Tally, graphs: number, bytes: number): void => {
  tally.graphs += graphs;
  tally.bytes += bytes;
};

/**
 * The one gate in front of every commit. A commit an organisation asked for carries a charge (charge.ts):
 * the gate checks it against the organisation's quotas and the consignment's bounds (quota-rule.ts),
 * refuses it with 507 QuotaExceeded before anything is stored, or counts it and writes the new totals
 * in the same atomic commit (usage-records.ts). A commit without a charge is the node's bookkeeping of
 * work already accepted and passes. Counting is in memory, at commit: no query per write.
 *
 * The check and the count happen in one synchronous step, so concurrent writers (the inbox, policy and
 * endpoint routes) cannot both pass a bound that only one fits. A commit the store then refuses gives
 * its count back in memory; a later commit of the same organisation that was already under way may
 * have written totals that include it, which overcounts until its next write: never undercounts.
 */
export class CommitGate extends DelegatingStore {
  constructor(
    inner: QuadStore,
    private readonly usage: UsageBook,
    private readonly limits: QuotaConfig,
    /** The node's capacity (DATASPACE_MAX_QUADS, the store's memory), applied to every charged write. */
    private readonly capacity?: { check(change: Change): Promise<void> },
  ) {
    super(inner);
  }

  override async commit(change: Change): Promise<Committed> {
    const { charge, notes } = change;
    if (!charge) return this.inner.commit(change);
    const bytes = insertedBytes(change);
    if (!releases(charge)) await this.capacity?.check(change);
    const tallies = charge.consignment
      ? await this.usage.consignment(charge.consignment.record, (charge.consignments ?? 0) > 0)
      : undefined;
    // From here to the inner commit's call, nothing awaits: check, count and totals are one step.
    const fresh = tallies !== undefined && !tallies.has(charge.organisation);
    const undo = this.count(charge, bytes, tallies);
    const row = this.usage.organisationOps(charge.organisation, this.usage.organisation(charge.organisation));
    const ops = [...change.ops, ...row.ops];
    if (charge.consignment && tallies)
      ops.push(...this.usage.tallyOps(charge.consignment.record, charge.organisation, tallies.get(charge.organisation)!, fresh));
    try {
      return await this.inner.commit({ ops, notes });
    } catch (error) {
      undo();
      row.undo();
      throw error;
    }
  }

  /** Checks the charge and counts it; answers what takes the count back. */
  private count(charge: Charge, bytes: number, tallies: Map<string, Tally> | undefined): () => void {
    const org = this.usage.organisation(charge.organisation);
    const adding: Adding = { consignments: charge.consignments ?? 0, graphs: charge.graphs ?? 0, policies: charge.policies ?? 0, bytes };
    const standing: Standing = { organisation: org };
    let tally: Tally | undefined;
    if (charge.consignment && tallies) {
      tally = tallies.get(charge.organisation) ?? { graphs: 0, bytes: 0 };
      if (charge.consignment.owner === charge.organisation) standing.own = tally;
      else {
        standing.contributor = tally;
        standing.others = othersOf(tallies, charge.consignment.owner);
      }
    }
    const refusal = releases(charge) ? undefined : quotaRefusal(this.limits, standing, adding);
    if (refusal) throw new QuotaExceeded(refusalMessage(refusal));
    org.consignments += adding.consignments;
    org.graphs += adding.graphs;
    org.policies += adding.policies;
    org.bytes += bytes;
    if (tally && tallies) {
      add(tally, adding.graphs, bytes);
      tallies.set(charge.organisation, tally);
    }
    return () => {
      org.consignments -= adding.consignments;
      org.graphs -= adding.graphs;
      org.policies -= adding.policies;
      org.bytes -= bytes;
      if (tally) add(tally, -adding.graphs, -bytes);
    };
  }
}

/** A write that gives something back (a withdrawn policy) is never refused: it only lowers what is counted. */
const releases = (charge: Charge): boolean => (charge.consignments ?? 0) < 0 || (charge.policies ?? 0) < 0;

/** What every organisation but the owner has added to a consignment. */
function othersOf(tallies: Map<string, Tally>, owner: string): Tally {
  const others = { graphs: 0, bytes: 0 };
  for (const [contributor, tally] of tallies) if (contributor !== owner) add(others, tally.graphs, tally.bytes);
  return others;
}
