import oxigraph from 'oxigraph';
import type { Quad } from '@rdfjs/types';
import type { Principal } from '../activities/principal.js';
import type { QueryBank } from '../queries/query-bank.js';
import { termToString } from '../rdf/terms.js';
import type { Scope, Visibility, VisibleConsignment } from '../policy/visibility.js';
import type { QuadStore } from '../store/quad-store.js';

/** RDF syntaxes of get-a-consignment besides its JSON read view. Turtle holds triples only: the graphs merged. */
export const RDF_EXPORT_TYPES = ['text/turtle', 'application/n-quads', 'application/trig', 'application/ld+json'] as const;
export type RdfExportType = (typeof RDF_EXPORT_TYPES)[number];

/** Triples in one of the RDF syntaxes the node writes (Turtle, N-Triples, JSON-LD, RDF/XML). */
export function serialiseTriples(triples: readonly Quad[], mediaType: string): string {
  const out = new oxigraph.Store();
  out.load(triples.map((q) => `${termToString(q.subject)} ${termToString(q.predicate)} ${termToString(q.object)} .\n`).join(''), { format: 'application/n-triples' });
  return out.dump({ format: mediaType, from_graph_name: oxigraph.defaultGraph() });
}

/**
 * A consignment as RDF: exactly the data graphs the caller may see in the scope, each as its own named
 * graph. The quads are read over a dataset of those graphs only, so nothing else can slip in.
 */
export class RdfExport {
  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly visibility: Visibility,
  ) {}

  async render(principal: Principal, visible: VisibleConsignment, scope: Scope, mediaType: RdfExportType): Promise<string> {
    const graphs = (await this.visibility.graphs(principal, visible, scope)).map((g) => g.graph);
    const rows = graphs.length === 0 ? [] : await this.store.select(this.queries.text('views/export-quads'), { defaultGraphs: [], namedGraphs: graphs });
    const merged = mediaType === 'text/turtle';
    const nquads = rows.map((row) => {
      const graph = merged ? '' : ` ${termToString(row.get('g')!)}`;
      return `${termToString(row.get('s')!)} ${termToString(row.get('p')!)} ${termToString(row.get('o')!)}${graph} .\n`;
    }).join('');
    const out = new oxigraph.Store();
    out.load(nquads, { format: 'application/n-quads' });
    return merged ? out.dump({ format: mediaType, from_graph_name: oxigraph.defaultGraph() }) : out.dump({ format: mediaType });
  }
}
