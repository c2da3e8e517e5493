import type { Quad } from '@rdfjs/types';
import oxigraph from 'oxigraph';
import { iri, type QueryBank } from '../queries/query-bank.js';
import { GRAPHS, svc } from '../rdf/namespaces.js';
import type { OxigraphStore } from '../store/oxigraph-store.js';
import type { QuadStore } from '../store/quad-store.js';

/**
 * What the node keeps about a consignment beside its data graphs: each subject that names it, with all
 * its triples. The records of its data graphs and documents name it with svc:consignment in the
 * metadata graph (views/documents-of-consignment.rq); with `events`, its system events too, with
 * svc:systemEventOf in the activity log (views/consignment-metadata.rq). consignment-metadata.ts
 * tells them apart.
 */
export type MetadataTriples = (consignment: string, events: boolean) => Promise<Iterable<Quad>>;

/** The two CONSTRUCTs, for any store. */
export function sparqlMetadataTriples(store: QuadStore, queries: QueryBank): MetadataTriples {
  return (consignment, events) => store.construct(queries.bind(events ? 'views/consignment-metadata' : 'views/documents-of-consignment', { consignment: iri(consignment) }));
}

const NAMING = [
  { graph: oxigraph.namedNode(GRAPHS.metadata), predicate: oxigraph.namedNode(svc('consignment')) },
  { graph: oxigraph.namedNode(GRAPHS.activityLog), predicate: oxigraph.namedNode(svc('systemEventOf')) },
];

/**
 * The same triples from the embedded store's quad index, lookups with no query: a cold view read them
 * in 0.62 ms of its ~4.3 ms of CPU through the CONSTRUCT, most of it parsing and planning the query
 * text, which Oxigraph's JS API cannot keep prepared; one lookup a pattern took 0.13–0.19 ms against
 * 0.24–0.48 ms (10k consignments, 500 each, measured alone).
 */
export function embeddedMetadataTriples(embedded: OxigraphStore): MetadataTriples {
  return async (consignment, events) => {
    const store = embedded.store;
    const object = oxigraph.namedNode(consignment);
    const triples: Quad[] = [];
    for (const { graph, predicate } of events ? NAMING : NAMING.slice(0, 1)) {
      for (const naming of store.match(null, predicate, object, graph)) {
        for (const quad of store.match(naming.subject, null, null, graph)) triples.push(quad as unknown as Quad);
      }
    }
    return triples;
  };
}
