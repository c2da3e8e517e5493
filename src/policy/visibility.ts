import type { Principal } from '../auth/principal.js';
import type { QueryBank } from '../queries/query-bank.js';
import { int, iri, list, str } from '../queries/query-bank.js';
import { isSafeIri } from '../rdf/terms.js';
import type { Bindings, QuadStore } from '../store/quad-store.js';
import { SVC } from '../rdf/namespaces.js';
import type { ChangeClock } from './change-clock.js';
import { CoverageCache } from './coverage-cache.js';
import { coverageBindings } from './coverage-subject.js';
import { IdResolution, NO_ACTIVITY } from './id-resolution.js';
import type { DocumentCandidate, VisibleConsignment, VisibleDocumentRow } from './visible-records.js';

export type Scope = 'own' | 'shared' | 'all';

export interface GraphInfo {
  graph: string;
  kind: 'ConsignmentState' | 'Event' | 'DocumentRevision';
  publisher: string;
  published: string;
  seq: number;
  root: string;
  activity: string;
}

/**
 * Orders candidates for list pages so a page costs what it shows, not what the store holds (see
 * publication-order.ts). Visibility still decides every candidate by the coverage rule in SPARQL.
 */
export interface CandidateSource {
  consignmentPage(principal: Principal, afterSeq: number, limit: number, verify: (candidates: string[]) => Promise<VisibleConsignment[]>): Promise<VisibleConsignment[]>;
  documentPage(principal: Principal, afterSeq: number, limit: number, verify: (candidates: DocumentCandidate[]) => Promise<VisibleDocumentRow[]>): Promise<VisibleDocumentRow[]>;
}

function consignment(row: Bindings): VisibleConsignment {
  const v = (name: string) => row.get(name)!.value;
  return {
    consignment: v('consignment'), owner: v('owner'), globalId: v('globalId'), identifier: v('identifier'),
    stateGraph: v('stateGraph'), created: v('created'), updated: v('updated'), status: v('status'), seq: Number(v('seq')),
  };
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
 * Which consignments and graphs a principal may read. Every decision is made inside the SPARQL
 * queries (sparql/views/*.rq, sparql/policy/*.rq), over the metadata and policy graphs; nothing is
 * filtered afterwards. Given a ChangeClock (only a store this process alone writes can have one), the
 * decisions are remembered per consignment and principal until a write or a policy change (see
 * CoverageCache), so a read that was decided before costs no query.
 */
export class Visibility {
  private readonly coverage: CoverageCache | undefined;
  private readonly ids: IdResolution | undefined;

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly candidates?: CandidateSource,
    clock?: ChangeClock,
  ) {
    this.coverage = clock && new CoverageCache(clock, (principal, candidates) => this.verify(principal, candidates));
    this.ids = clock && new IdResolution(store, queries, clock);
  }

  async find(principal: Principal, id: string): Promise<VisibleConsignment | undefined> {
    if (this.coverage && this.ids) {
      const matches = await this.ids.resolve(id);
      if (matches.length === 0) return undefined;
      const byActivity = new Set(matches.filter((m) => m.byActivity).map((m) => m.consignment));
      const readable = await this.coverage.readable(principal, matches.map((m) => m.consignment));
      // A remembered match may have changed its identifier since: the record read now must still carry the id.
      return preferred(principal, readable.filter((c) => c.globalId === id || c.identifier === id || byActivity.has(c.consignment)));
    }
    const rows = await this.store.select(this.queries.bind('views/find-consignment', {
      ...coverageBindings(principal),
      id: str(id),
      activity: iri(isSafeIri(id) ? id : NO_ACTIVITY),
    }));
    return preferred(principal, rows.map(consignment));
  }

  /** The candidates (consignment record IRIs) the principal may read, in publication order; remembered when cached. */
  private readable(principal: Principal, candidates: string[]): Promise<VisibleConsignment[]> {
    return this.coverage ? this.coverage.readable(principal, candidates) : this.verify(principal, candidates);
  }

  /** Up to `limit` visible consignments published after `afterSeq`, in publication order. */
  async list(principal: Principal, afterSeq: number, limit: number): Promise<VisibleConsignment[]> {
    if (this.candidates) return this.candidates.consignmentPage(principal, afterSeq, limit, (c) => this.readable(principal, c));
    const rows = await this.store.select(this.queries.bind('views/list-consignments', {
      ...coverageBindings(principal), after: int(afterSeq), limit: int(limit),
    }));
    return rows.map(consignment);
  }

  /** The candidates (consignment record IRIs) the principal may read, in publication order. */
  async verify(principal: Principal, candidates: string[]): Promise<VisibleConsignment[]> {
    if (candidates.length === 0) return [];
    const rows = await this.store.select(this.queries.bind('views/visible-consignments', {
      ...coverageBindings(principal), candidates: list(candidates.map(iri)),
    }));
    return rows.map(consignment).sort((a, b) => a.seq - b.seq);
  }

  /** Up to `limit` documents of visible consignments registered after `afterSeq`, in that order. */
  async documentPage(principal: Principal, afterSeq: number, limit: number): Promise<VisibleDocumentRow[]> {
    if (this.candidates) return this.candidates.documentPage(principal, afterSeq, limit, (c) => this.readableDocuments(principal, c));
    const rows = await this.store.select(this.queries.bind('views/list-documents', {
      ...coverageBindings(principal), after: int(afterSeq), limit: int(limit),
    }));
    return rows.map(documentRow);
  }

  /** The candidate documents whose consignments the principal may read, in registration order. */
  private async readableDocuments(principal: Principal, candidates: DocumentCandidate[]): Promise<VisibleDocumentRow[]> {
    if (!this.coverage) return this.verifyDocuments(principal, candidates.map((c) => c.document));
    const readable = new Map((await this.coverage.readable(principal, candidates.map((c) => c.consignment))).map((c) => [c.consignment, c]));
    return candidates.flatMap((c) => {
      const visible = readable.get(c.consignment);
      return visible ? [{ document: c.document, consignment: c.consignment, globalId: visible.globalId, docSeq: c.docSeq }] : [];
    }).sort((a, b) => a.docSeq - b.docSeq);
  }

  /** The candidate documents whose consignments the principal may read, in registration order. */
  async verifyDocuments(principal: Principal, candidates: string[]): Promise<VisibleDocumentRow[]> {
    if (candidates.length === 0) return [];
    const rows = await this.store.select(this.queries.bind('views/visible-documents', {
      ...coverageBindings(principal), candidates: list(candidates.map(iri)),
    }));
    return rows.map(documentRow).sort((a, b) => a.docSeq - b.docSeq);
  }

  /** The data graphs about a visible consignment that the principal may read, limited to the scope. */
  async graphs(principal: Principal, visible: VisibleConsignment, scope: Scope): Promise<GraphInfo[]> {
    const rows = await this.store.select(this.queries.bind('views/consignment-graphs', {
      ...coverageBindings(principal), consignment: iri(visible.consignment), scope: str(scope),
    }));
    const graphs = rows.map((row): GraphInfo => ({
      graph: row.get('graph')!.value,
      kind: row.get('kind')!.value.slice(SVC.length) as GraphInfo['kind'],
      publisher: row.get('publisher')!.value,
      published: row.get('published')!.value,
      seq: Number(row.get('seq')!.value),
      root: row.get('root')!.value,
      activity: row.get('activity')!.value,
    }));
    // The caller's own contributions first, the shared ones appended, each in publication order.
    const own = (g: GraphInfo) => Number(g.publisher === principal.org.id);
    return graphs.sort((a, b) => own(b) - own(a) || a.seq - b.seq);
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
