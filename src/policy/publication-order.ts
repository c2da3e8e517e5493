import type { Principal } from '../auth/principal.js';
import type { ConsignmentIndex, ConsignmentEntry, DocumentEntry } from '../catalog/consignment-index.js';
import type { CoveragePolicies } from './coverage-policies.js';
import { coverageSubject, type CoverageSubject } from './coverage-subject.js';
import type { CoverageRule } from './coverage.js';
import { waitForLoad } from './load-wait.js';
import { merged } from '../util/seq-lists.js';
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
  constructor(
    private readonly index: ConsignmentIndex,
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
  private consignmentLists(subject: CoverageSubject, rule: CoverageRule, ownToo = true): ConsignmentEntry[][] {
    const lists = ownToo ? [this.index.byOwner.get(subject.org) ?? []] : [];
    for (const grant of rule.grants(subject)) {
      if (grant.locations) for (const location of grant.locations) lists.push(this.index.byLocation.get(location) ?? []);
      else lists.push(this.index.byOwner.get(grant.owner) ?? []);
    }
    return lists;
  }

  private documentLists(subject: CoverageSubject, rule: CoverageRule, ownToo = true): DocumentEntry[][] {
    const owners = new Set([...(ownToo ? [subject.org] : []), ...rule.grants(subject).map((g) => g.owner)]);
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

  /**
   * The lists in publication order that hold every consignment a filter without `updatedSince` can
   * show, the shortest of three: what the caller may read (its own only, for `scope=own`), the
   * consignments in the status, those routed through the location. Made again on each turn of a walk.
   */
  private filteredSource(subject: CoverageSubject, rule: CoverageRule, filter: ListFilter): () => ConsignmentEntry[][] {
    const { status, location, scope } = filter;
    const sources: (() => ConsignmentEntry[][])[] = [
      () => (scope === 'own' ? [this.index.byOwner.get(subject.org) ?? []] : this.consignmentLists(subject, rule, scope === 'all')),
    ];
    if (status !== undefined) sources.push(() => [this.index.byStatus.get(status) ?? []]);
    if (location !== undefined) sources.push(() => [this.index.byLocation.get(location) ?? []]);
    const size = (source: () => ConsignmentEntry[][]) => source().reduce((n, list) => n + list.length, 0);
    return sources.reduce((best, source) => (size(source) < size(best) ? source : best));
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
        (key: ListKey) => this.index.byUpdate.from({ ms: key.ms ?? 0, seq: key.seq }),
        (e) => ({ ms: e.updatedMs, seq: e.seq }),
        start,
        keep,
        limits,
      );
    } else {
      const lists = this.filteredSource(subject, rule, filter);
      page = await walkPage(
        (key: ListKey) => merged(lists(), key.seq),
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
    const lists = () =>
      scope === 'own' ? [this.index.documentsByOwner.get(subject.org) ?? []] : this.documentLists(subject, rule, scope === 'all');
    const keep = (entry: DocumentEntry) => meets(filter, subject.org, entry.consignment) && rule.covers(subject, entry.consignment);
    const page = await walkPage(
      (seq: number) => merged(lists(), seq),
      (e) => e.seq,
      afterSeq,
      keep,
      limits,
    );
    const items = page.items.map((e) => ({
      document: e.iri,
      consignment: e.consignment.iri,
      globalId: e.consignment.record.globalId,
      docSeq: e.seq,
    }));
    return { items, next: page.next };
  }
}
