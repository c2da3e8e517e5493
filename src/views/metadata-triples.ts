import type { Quad } from '@rdfjs/types';
import { iri, type QueryBank } from '../queries/query-bank.js';
import type { QuadStore } from '../store/quad-store.js';

/**
 * What the node keeps about a consignment beside its data graphs: each subject that names it, with all
 * its triples. The records of its data graphs and documents name it with svc:consignment in the
 * metadata graph (views/documents-of-consignment.rq); with `events`, its system events too, with
 * svc:systemEventOf in the activity log. consignment-metadata.ts tells them apart.
 */
export type MetadataTriples = (consignment: string, events: boolean) => Promise<Iterable<Quad>>;

/**
 * The CONSTRUCTs, for any store: one that reads both graphs (views/consignment-metadata.rq) where the
 * store holds the activity log with the rest (a round trip to a server costs more than the join), one
 * for each graph where it keeps the activity log apart.
 */
export function sparqlMetadataTriples(store: QuadStore, queries: QueryBank): MetadataTriples {
  const { activityLog } = store;
  const documents = (consignment: string) => store.construct(queries.bind('views/documents-of-consignment', { consignment: iri(consignment) }));
  if (activityLog === store) {
    return (consignment, events) => (events ? store.construct(queries.bind('views/consignment-metadata', { consignment: iri(consignment) })) : documents(consignment));
  }
  return async (consignment, events) => {
    if (!events) return documents(consignment);
    const [records, systemEvents] = await Promise.all([
      documents(consignment),
      activityLog.construct(queries.bind('views/system-events-of-consignment', { consignment: iri(consignment) })),
    ]);
    return records.concat(systemEvents);
  };
}
