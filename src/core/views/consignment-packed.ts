import type { Quad } from '@rdfjs/types';
import type { QueryBank } from '../queries/query-bank.js';
import { iri } from '../queries/query-bank.js';
import { GRAPHS } from '../rdf/namespaces.js';
import type { QuadStore } from '../ports/quad-store.js';
import { unpackTriples } from './packed-triples.js';

/** A consignment read whole in one request (views/consignment-packed.rq). */
export interface PackedConsignment {
  /** The metadata records and system events naming it: what views/consignment-metadata.rq reads. */
  metadata: Quad[];
  /** Each data graph's triples whose text checked out; a graph absent here is read the usual way. */
  graphs: Map<string, Quad[]>;
}

/**
 * Reads the consignment's metadata, system events and data graphs in one request: for a view never
 * rendered on a SPARQL server, where each request costs the server a floor of its own. Undefined when
 * the metadata or the events did not come whole (the caller reads them the usual way).
 */
export async function readPackedConsignment(
  store: QuadStore,
  queries: QueryBank,
  consignment: string,
): Promise<PackedConsignment | undefined> {
  const metadata: Quad[] = [];
  const graphs = new Map<string, Quad[]>();
  for (const row of await store.select(queries.bind('views/consignment-packed', { consignment: iri(consignment) }))) {
    const graph = row.get('graph')!.value;
    const triples = unpackTriples(row.get('text')?.value ?? '');
    if (graph === GRAPHS.metadata || graph === GRAPHS.activityLog) {
      if (!triples) return undefined;
      metadata.push(...triples);
    } else if (triples) graphs.set(graph, triples);
  }
  return { metadata, graphs };
}
