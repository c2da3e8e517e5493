import type { Principal } from '../auth/principal.js';
import type { CandidateLists, ConsignmentCatalog, ConsignmentEntry, DocumentEntry } from '../ports/consignment-catalog.js';
import type { CoveragePolicies } from './coverage-policies.js';
import { coverageSubject, type CoverageSubject } from './coverage-subject.js';
import type { CoverageRule } from './coverage.js';
import { waitForLoad } from './load-wait.js';
import type { UpdateKey } from '../catalog/update-order.js';
import { walkPage, type WalkLimits, type WalkPage } from '../util/filtered-walk.js';
import { meets, type ListFilter } from './list-filter.js';
import type { VisibleConsignment, VisibleDocumentRow } from './visible-records.js';

/** What an id names in memory: the consignments it is the globalId or an identifier of, those the principal may read. */
export interface Named {
  /** Whether the id names any consignment as globalId or identifier, readable or not. */
  named: boolean;
  readable: VisibleConsignment[];
}

/** Where a filtered list resumes: after publication number `seq`, or in update order (`updatedSince`) after (`ms`, `seq`). */
export interface ListKey {
  seq: number;
  ms?: number;
}

/** Entries an unfiltered page looks at between two turns of the event loop (and asks a table for at once). */
const UNFILTERED_SLICE = 200;

const documentRow = (e: DocumentEntry): VisibleDocumentRow => ({
  document: e.iri,
  consignment: e.consignment.iri,
  globalId: e.consignment.record.globalId,
  docSeq: e.seq,
});

export interface PublicationOrderOptions {
  /** How long a read waits for the index's load before it is answered 503 with a Retry-After. */
  loadWaitMs?: number;
}

/**
 * Reads decided over the node's one consignment catalog (core/ports/consignment-catalog.ts: records,
 * routes, publication order, kept in step with every write at its commit) and the coverage rule in
 * code (coverage.ts) over the policies in force. A list page walks the consignments of the owners and
 * locations the principal's grants name, in publication order, and keeps what the rule covers, so a
 * page costs what it shows rather than what the store holds and no read asks the store which
 * consignments are visible (docs/policies.md).
 */
export class PublicationOrder {
  constructor(
    private readonly index: ConsignmentCatalog,
    private readonly policies: CoveragePolicies,
    private readonly options: PublicationOrderOptions = {},
  ) {}

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
    const entries = await this.index.named(id);
    return { named: entries.length > 0, readable: entries.filter((e) => rule.covers(subject, e)).map((e) => e.record) };
  }

  /** The consignments (record IRIs) the principal may read, in publication order. */
  async readable(principal: Principal, consignments: readonly string[]): Promise<VisibleConsignment[]> {
    const { subject, rule } = await this.decider(principal);
    const found = new Map<string, ConsignmentEntry>();
    for (const entry of await this.index.entries(consignments)) if (rule.covers(subject, entry)) found.set(entry.iri, entry);
    return [...found.values()].sort((a, b) => a.seq - b.seq).map((e) => e.record);
  }

  /** The owners and locations whose consignments hold every one the principal's grants name (and more, which the rule then leaves out). */
  private candidates(subject: CoverageSubject, rule: CoverageRule, ownToo = true): CandidateLists {
    const owners = ownToo ? [subject.org] : [];
    const locations: string[] = [];
    for (const grant of rule.grants(subject)) {
      if (grant.locations) locations.push(...grant.locations);
      else owners.push(grant.owner);
    }
    return { owners: [...new Set(owners)], locations: [...new Set(locations)] };
  }

  private documentOwners(subject: CoverageSubject, rule: CoverageRule, ownToo = true): string[] {
    return [...new Set([...(ownToo ? [subject.org] : []), ...rule.grants(subject).map((g) => g.owner)])];
  }

  /** Up to `limit` consignments the principal may read, published after `afterSeq`, in that order. */
  async consignmentPage(principal: Principal, afterSeq: number, limit: number): Promise<VisibleConsignment[]> {
    const { subject, rule } = await this.decider(principal);
    const lists = this.candidates(subject, rule);
    const page = await walkPage(
      (seq: number, count: number) => this.index.consignmentsAfter(lists, {}, seq, count),
      (e) => e.seq,
      afterSeq,
      (entry) => rule.covers(subject, entry),
      { items: limit, examine: Infinity, slice: UNFILTERED_SLICE },
    );
    return page.items.map((e) => e.record);
  }

  /** Up to `limit` documents of consignments the principal may read, registered after `afterSeq`, in that order. */
  async documentPage(principal: Principal, afterSeq: number, limit: number): Promise<VisibleDocumentRow[]> {
    const { subject, rule } = await this.decider(principal);
    const owners = this.documentOwners(subject, rule);
    const page = await walkPage(
      (seq: number, count: number) => this.index.documentsAfter(owners, seq, count),
      (e) => e.seq,
      afterSeq,
      (entry) => rule.covers(subject, entry.consignment),
      { items: limit, examine: Infinity, slice: UNFILTERED_SLICE },
    );
    return page.items.map(documentRow);
  }

  /**
   * A page of the consignments the principal may read that meet the filter: with `updatedSince` in
   * update order (when each last changed, then publication order), walking the index's update order
   * from that time; otherwise in publication order, walking the shortest list that holds them all.
   * Each entry is checked by the filter and the coverage rule, so the source only decides the cost.
   */
  async filteredConsignmentPage(
    principal: Principal,
    filter: ListFilter,
    after: ListKey | undefined,
    limits: WalkLimits,
  ): Promise<WalkPage<VisibleConsignment, ListKey>> {
    const { subject, rule } = await this.decider(principal);
    const keep = (entry: ConsignmentEntry) => meets(filter, subject.org, entry) && rule.covers(subject, entry);
    let page: WalkPage<ConsignmentEntry, ListKey>;
    if (filter.updatedSince !== undefined) {
      const start: UpdateKey = after?.ms !== undefined ? { ms: after.ms, seq: after.seq } : { ms: filter.updatedSince, seq: -1 };
      page = await walkPage(
        (key: ListKey, count: number) => this.index.updatedAfter({ ms: key.ms ?? 0, seq: key.seq }, count),
        (e) => ({ ms: e.updatedMs, seq: e.seq }),
        start,
        keep,
        limits,
      );
    } else {
      const { status, location, scope } = filter;
      const lists = scope === 'own' ? { owners: [subject.org], locations: [] } : this.candidates(subject, rule, scope === 'all');
      page = await walkPage(
        (key: ListKey, count: number) => this.index.consignmentsAfter(lists, { status, location }, key.seq, count),
        (e) => ({ seq: e.seq }),
        { seq: after?.seq ?? 0 },
        keep,
        limits,
      );
    }
    return { items: page.items.map((e) => e.record), next: page.next };
  }

  /** A page of the documents of consignments the principal may read that meet the filter (no `updatedSince`), in registration order. */
  async filteredDocumentPage(
    principal: Principal,
    filter: ListFilter,
    afterSeq: number,
    limits: WalkLimits,
  ): Promise<WalkPage<VisibleDocumentRow, number>> {
    const { subject, rule } = await this.decider(principal);
    const { scope } = filter;
    const owners = scope === 'own' ? [subject.org] : this.documentOwners(subject, rule, scope === 'all');
    const keep = (entry: DocumentEntry) => meets(filter, subject.org, entry.consignment) && rule.covers(subject, entry.consignment);
    const page = await walkPage(
      (seq: number, count: number) => this.index.documentsAfter(owners, seq, count),
      (e) => e.seq,
      afterSeq,
      keep,
      limits,
    );
    return { items: page.items.map(documentRow), next: page.next };
  }
}
