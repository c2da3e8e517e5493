import type { Principal } from '../activities/principal.js';
import type { QueryBank } from '../queries/query-bank.js';
import { int, iri, str } from '../queries/query-bank.js';
import { isSafeIri } from '../rdf/terms.js';
import type { Bindings, QuadStore } from '../store/quad-store.js';
import { SVC } from '../rdf/namespaces.js';

/** A consignment the caller may read, with its bookkeeping. */
export interface VisibleConsignment {
  consignment: string;
  owner: string;
  globalId: string;
  identifier: string;
  stateGraph: string;
  created: string;
  updated: string;
  status: string;
  seq: number;
}

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

function consignment(row: Bindings): VisibleConsignment {
  const v = (name: string) => row.get(name)!.value;
  return {
    consignment: v('consignment'), owner: v('owner'), globalId: v('globalId'), identifier: v('identifier'),
    stateGraph: v('stateGraph'), created: v('created'), updated: v('updated'), status: v('status'), seq: Number(v('seq')),
  };
}

// Binds to nothing: keeps the activity branch of find-consignment inert when the id is not an IRI.
const NO_ACTIVITY = 'urn:dataspace:none';

/**
 * Which consignments and graphs a principal may read. Every decision is made inside the SPARQL
 * queries (sparql/views/*.rq), over the metadata and policy graphs; nothing is filtered afterwards.
 */
export class Visibility {
  constructor(private readonly store: QuadStore, private readonly queries: QueryBank) {}

  private bindings(principal: Principal) {
    return { org: iri(principal.org.id) };
  }

  async find(principal: Principal, id: string): Promise<VisibleConsignment | undefined> {
    const rows = await this.store.select(this.queries.bind('views/find-consignment', {
      ...this.bindings(principal),
      id: str(id),
      activity: iri(isSafeIri(id) ? id : NO_ACTIVITY),
    }));
    return rows[0] && consignment(rows[0]);
  }

  async list(principal: Principal, afterSeq: number, limit: number): Promise<VisibleConsignment[]> {
    const rows = await this.store.select(this.queries.bind('views/list-consignments', {
      ...this.bindings(principal), after: int(afterSeq), limit: int(limit),
    }));
    return rows.map(consignment);
  }

  /** The data graphs about a visible consignment, limited to the scope. */
  async graphs(principal: Principal, visible: VisibleConsignment, scope: Scope): Promise<GraphInfo[]> {
    const rows = await this.store.select(this.queries.bind('views/consignment-graphs', { consignment: iri(visible.consignment) }));
    return rows
      .map((row): GraphInfo => ({
        graph: row.get('graph')!.value,
        kind: row.get('kind')!.value.slice(SVC.length) as GraphInfo['kind'],
        publisher: row.get('publisher')!.value,
        published: row.get('published')!.value,
        seq: Number(row.get('seq')!.value),
        root: row.get('root')!.value,
        activity: row.get('activity')!.value,
      }))
      .filter((g) => inScope(scope, g.publisher, principal));
  }
}

export function inScope(scope: Scope, publisher: string, principal: Principal): boolean {
  if (scope === 'all') return true;
  return scope === 'own' ? publisher === principal.org.id : publisher !== principal.org.id;
}
