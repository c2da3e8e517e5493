import type { Principal } from '../auth/principal.js';
import type { ConsignmentIndex, ConsignmentEntry, DocumentEntry } from '../catalog/consignment-index.js';
import type { CoveragePolicies } from './coverage-policies.js';
import { coverageSubject, type CoverageSubject } from './coverage-subject.js';
import type { CoverageRule } from './coverage.js';
import { waitForLoad } from './load-wait.js';
import { merged } from '../util/seq-lists.js';
import type { VisibleConsignment, VisibleDocumentRow } from './visible-records.js';

/** What an id names in memory: the consignments it is the globalId or an identifier of, those the principal may read. */
export interface Named {
  /** Whether the id names any consignment as globalId or identifier, readable or not. */
  named: boolean;
  readable: VisibleConsignment[];
}

export interface PublicationOrderOptions {
  /** How long a read waits for the index's load before it is answered 503 with a Retry-After. */
  loadWaitMs?: number;
}

/**
 * Reads decided in memory: the node's one consignment index (catalog/consignment-index.ts: records,
 * routes, publication order, kept in step with every write at its commit) and the
 * coverage rule in code (coverage.ts) over the policies in force. A list page walks the lists of the
 * owners and locations the principal's grants name, in publication order, and keeps what the rule
 * covers, so a page costs what it shows rather than what the store holds and no read asks the store
 * which consignments are visible (docs/policies.md).
 */
export class PublicationOrder {
  constructor(private readonly index: ConsignmentIndex, private readonly policies: CoveragePolicies, private readonly options: PublicationOrderOptions = {}) {}

  /**
   * The index loaded (at most `loadWaitMs`, else 503) and the rule over the policies in force. A read
   * never waits for the writes since the last one: the index has each of them from its commit.
   */
  private async decider(principal: Principal): Promise<{ subject: CoverageSubject; rule: CoverageRule }> {
    const [rule] = await Promise.all([this.policies.rule(), waitForLoad(this.index.complete(), this.options.loadWaitMs)]);
    return { subject: coverageSubject(principal), rule };
  }

  /** The consignments an id names as globalId or identifier, and those of them the principal may read. */
  async named(principal: Principal, id: string): Promise<Named> {
    const { subject, rule } = await this.decider(principal);
    const entries = this.index.named(id);
    return { named: entries.length > 0, readable: entries.filter((e) => rule.covers(subject, e)).map((e) => e.record) };
  }

  /** The consignments (record IRIs) the principal may read, in publication order. */
  async readable(principal: Principal, consignments: readonly string[]): Promise<VisibleConsignment[]> {
    const { subject, rule } = await this.decider(principal);
    const found = new Set<ConsignmentEntry>();
    for (const consignment of consignments) {
      const entry = this.index.entry(consignment);
      if (entry && rule.covers(subject, entry)) found.add(entry);
    }
    return [...found].sort((a, b) => a.seq - b.seq).map((e) => e.record);
  }

  /** The ordered lists that hold every consignment the principal's grants name (and more, which the rule then leaves out). */
  private consignmentLists(subject: CoverageSubject, rule: CoverageRule): ConsignmentEntry[][] {
    const lists = [this.index.byOwner.get(subject.org) ?? []];
    for (const grant of rule.grants(subject)) {
      if (grant.locations) for (const location of grant.locations) lists.push(this.index.byLocation.get(location) ?? []);
      else lists.push(this.index.byOwner.get(grant.owner) ?? []);
    }
    return lists;
  }

  private documentLists(subject: CoverageSubject, rule: CoverageRule): DocumentEntry[][] {
    const owners = new Set([subject.org, ...rule.grants(subject).map((g) => g.owner)]);
    return [...owners].map((owner) => this.index.documentsByOwner.get(owner) ?? []);
  }

  /** Up to `limit` consignments the principal may read, published after `afterSeq`, in that order. */
  async consignmentPage(principal: Principal, afterSeq: number, limit: number): Promise<VisibleConsignment[]> {
    const { subject, rule } = await this.decider(principal);
    const page: VisibleConsignment[] = [];
    for (const entry of merged(this.consignmentLists(subject, rule), afterSeq)) {
      if (page.length >= limit) break;
      if (rule.covers(subject, entry)) page.push(entry.record);
    }
    return page;
  }

  /** Up to `limit` documents of consignments the principal may read, registered after `afterSeq`, in that order. */
  async documentPage(principal: Principal, afterSeq: number, limit: number): Promise<VisibleDocumentRow[]> {
    const { subject, rule } = await this.decider(principal);
    const page: VisibleDocumentRow[] = [];
    for (const entry of merged(this.documentLists(subject, rule), afterSeq)) {
      if (page.length >= limit) break;
      const c = entry.consignment;
      if (rule.covers(subject, c)) page.push({ document: entry.iri, consignment: c.iri, globalId: c.record.globalId, docSeq: entry.seq });
    }
    return page;
  }
}
