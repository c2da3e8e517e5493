import type { Quad } from '@rdfjs/types';
import { iri, type QueryBank } from '../queries/query-bank.js';
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
