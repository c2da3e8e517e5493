import type { Principal } from '../auth/principal.js';
import { graphInfo, type GraphInfo } from '../catalog/graph-metadata.js';
import { canonicalGlobalId, isGlobalIdForm } from '../catalog/identities.js';
import type { QueryBank } from '../queries/query-bank.js';
import { int, iri, list, str } from '../queries/query-bank.js';
import { isSafeIri } from '../rdf/terms.js';
import type { Bindings, QuadStore } from '../ports/quad-store.js';
import type { ChangeClock } from './change-clock.js';
import { coverageBindings } from './coverage-subject.js';
import { IdResolution } from './id-resolution.js';
import type { ListKey, PublicationOrder } from './publication-order.js';
import type { WalkLimits, WalkPage } from '../util/filtered-walk.js';
import type { ListFilter, Scope } from './list-filter.js';
import { visibleConsignment, type VisibleConsignment, type VisibleDocumentRow } from './visible-records.js';

/** The caller's own contributions first, the shared ones appended, each in publication order. */
export function ownFirst(principal: Principal, graphs: GraphInfo[]): GraphInfo[] {
  const own = (g: GraphInfo) => Number(g.publisher === principal.org.id);
  return graphs.sort((a, b) => own(b) - own(a) || a.seq - b.seq);
}

function documentRow(row: Bindings): VisibleDocumentRow {
  return {
    document: row.get('document')!.value,
    consignment: row.get('consignment')!.value,
    globalId: row.get('globalId')!.value,
    docSeq: Number(row.get('docSeq')!.value),
  };
}

/** An identifier is unique per publisher only: the caller's own consignment wins, then the first published. */
function preferred(principal: Principal, found: VisibleConsignment[]): VisibleConsignment | undefined {
  const own = (c: VisibleConsignment) => Number(c.owner === principal.org.id);
  return found.sort((a, b) => own(b) - own(a) || a.seq - b.seq)[0];
}

/**
 * Which consignments and graphs a principal may read, by the coverage rule (docs/policies.md). Given
 * the publication order (the read index in memory, which follows this process's writes), finding and
 * listing are decided in memory by the rule in code (coverage.ts); without it, and for the SPARQL
 * endpoint's dataset and RDF exports, inside the SPARQL queries by the rule's fragments
 * (sparql/policy/coverage-*.rq-fragment). The two are one rule: a property test shows they agree.
 */
export class Visibility {
  private readonly ids: IdResolution;

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly order?: PublicationOrder,
    clock?: ChangeClock,
  ) {
    this.ids = new IdResolution(store.activityLog, queries, clock);
  }

  /**
   * The consignment an id names for this principal. An id in globalId form (any case) names the
   * consignment with that globalId alone: an identifier equal to it never stands in, readable or not
   * (core/catalog/identities.ts), so no publisher can make a reader's or a signal's link lead elsewhere.
   */
  async find(principal: Principal, sent: string): Promise<VisibleConsignment | undefined> {
    const id = canonicalGlobalId(sent);
    let named = await this.named(principal, id);
    // A consignment stored before globalIds were kept canonical is found by its globalId as stored.
    if (named.length === 0 && sent !== id) named = (await this.named(principal, sent)).filter((c) => c.globalId === sent);
    if (named.length > 0) return preferred(principal, named);
    // Not a readable globalId or identifier: an activity-log urn names a consignment too.
    if (!isSafeIri(id)) return undefined;
    const byActivity = await this.ids.consignmentsOf(id);
    if (byActivity.length === 0) return undefined;
    return preferred(principal, this.order ? await this.order.readable(principal, byActivity) : await this.verify(principal, byActivity));
  }

  /** The readable consignments an id names: by globalId alone when it has that form, else by identifier. */
  private async named(principal: Principal, id: string): Promise<VisibleConsignment[]> {
    const found = this.order
      ? (await this.order.named(principal, id)).readable
      : (await this.store.select(this.queries.bind('views/find-consignment', { ...coverageBindings(principal), id: str(id) }))).map(
          visibleConsignment,
        );
    return isGlobalIdForm(id) ? found.filter((c) => c.globalId === id) : found;
  }

  /** Up to `limit` visible consignments published after `afterSeq`, in publication order. */
  async list(principal: Principal, afterSeq: number, limit: number): Promise<VisibleConsignment[]> {
    if (this.order) return this.order.consignmentPage(principal, afterSeq, limit);
    const rows = await this.store.select(
      this.queries.bind('views/list-consignments', {
        ...coverageBindings(principal),
        after: int(afterSeq),
        limit: int(limit),
      }),
    );
    return rows.map(visibleConsignment);
  }

  /** A page of the visible consignments that meet a filter (list-filter.ts): answered from the index alone. */
  async filteredList(
    principal: Principal,
    filter: ListFilter,
    after: ListKey | undefined,
    limits: WalkLimits,
  ): Promise<WalkPage<VisibleConsignment, ListKey>> {
    if (!this.order) throw new Error('Filtered lists are answered from the consignment index, which this Visibility was not given');
    return this.order.filteredConsignmentPage(principal, filter, after, limits);
  }

  /** A page of the documents of visible consignments that meet a filter: answered from the index alone. */
  async filteredDocuments(
    principal: Principal,
    filter: ListFilter,
    afterSeq: number,
    limits: WalkLimits,
  ): Promise<WalkPage<VisibleDocumentRow, number>> {
    if (!this.order) throw new Error('Filtered lists are answered from the consignment index, which this Visibility was not given');
    return this.order.filteredDocumentPage(principal, filter, afterSeq, limits);
  }

  /** The candidates (consignment record IRIs) the principal may read, in publication order, decided in SPARQL. */
  async verify(principal: Principal, candidates: string[]): Promise<VisibleConsignment[]> {
    if (candidates.length === 0) return [];
    const rows = await this.store.select(
      this.queries.bind('views/visible-consignments', {
        ...coverageBindings(principal),
        candidates: list(candidates.map(iri)),
      }),
    );
    return rows.map(visibleConsignment).sort((a, b) => a.seq - b.seq);
  }

  /** Up to `limit` documents of visible consignments registered after `afterSeq`, in that order. */
  async documentPage(principal: Principal, afterSeq: number, limit: number): Promise<VisibleDocumentRow[]> {
    if (this.order) return this.order.documentPage(principal, afterSeq, limit);
    const rows = await this.store.select(
      this.queries.bind('views/list-documents', {
        ...coverageBindings(principal),
        after: int(afterSeq),
        limit: int(limit),
      }),
    );
    return rows.map(documentRow);
  }

  /** The candidate documents whose consignments the principal may read, in registration order. */
  async verifyDocuments(principal: Principal, candidates: string[]): Promise<VisibleDocumentRow[]> {
    if (candidates.length === 0) return [];
    const rows = await this.store.select(
      this.queries.bind('views/visible-documents', {
        ...coverageBindings(principal),
        candidates: list(candidates.map(iri)),
      }),
    );
    return rows.map(documentRow).sort((a, b) => a.docSeq - b.docSeq);
  }

  /**
   * The data graphs about a visible consignment that the principal may read, limited to the scope.
   * Given the publication order, whether it may read the consignment is decided once, in memory, by the
   * rule over the policies held since they changed: inside the query it was decided per graph at a cost
   * that grows with every organisation's policies (figures:
   * bench/results/2026-12-08-comment-figures.md).
   */
  async graphs(principal: Principal, visible: VisibleConsignment, scope: Scope): Promise<GraphInfo[]> {
    const bound = { org: iri(principal.org.id), consignment: iri(visible.consignment), scope: str(scope) };
    if (this.order) {
      if ((await this.order.readable(principal, [visible.consignment])).length === 0) return [];
      return ownFirst(principal, (await this.store.select(this.queries.bind('views/graphs-of-consignment', bound))).map(graphInfo));
    }
    const rows = await this.store.select(this.queries.bind('views/consignment-graphs', { ...coverageBindings(principal), ...bound }));
    return ownFirst(principal, rows.map(graphInfo));
  }

  /** Every data graph the principal may read: the dataset of its SPARQL queries. */
  async visibleGraphs(principal: Principal): Promise<string[]> {
    const rows = await this.store.select(this.queries.bind('policy/visible-graphs', coverageBindings(principal)));
    return rows.map((row) => row.get('graph')!.value);
  }
}

export function inScope(scope: Scope, publisher: string, principal: Principal): boolean {
  if (scope === 'all') return true;
  return scope === 'own' ? publisher === principal.org.id : publisher !== principal.org.id;
}
