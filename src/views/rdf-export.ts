import type { Quad } from '@rdfjs/types';
import oxigraph from 'oxigraph';
import type { Principal } from '../auth/principal.js';
import type { QueryBank } from '../queries/query-bank.js';
import type { Scope, Visibility } from '../policy/visibility.js';
import type { VisibleConsignment } from '../policy/visible-records.js';
import type { QuadStore } from '../store/quad-store.js';

/**
 * A consignment as RDF: exactly the data graphs the caller may see in the scope, each as its own named
 * graph. The quads are read over a dataset of those graphs only, so nothing else can slip in. The
 * syntax is chosen by the route (src/views/rdf-formats.ts writes it).
 */
export class RdfExport {
  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly visibility: Visibility,
  ) {}

  async quads(principal: Principal, visible: VisibleConsignment, scope: Scope): Promise<Quad[]> {
    const graphs = (await this.visibility.graphs(principal, visible, scope)).map((g) => g.graph);
    if (graphs.length === 0) return [];
    const rows = await this.store.select(this.queries.text('views/export-quads'), { defaultGraphs: [], namedGraphs: graphs });
    return rows.map((row) => oxigraph.quad(row.get('s') as never, row.get('p') as never, row.get('o') as never, row.get('g') as never) as unknown as Quad);
  }
}
