import type { Quad, Quad_Object, Quad_Predicate, Quad_Subject } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { iri, type QueryBank } from '../queries/query-bank.js';
import { triplesFromTsv } from '../rdf/ntriples-text.js';
import type { QuadStore } from '../ports/quad-store.js';

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
 * for the records and a SELECT of the system events' triples where it keeps the activity log apart.
 */
export function sparqlMetadataTriples(store: QuadStore, queries: QueryBank): MetadataTriples {
  const { activityLog } = store;
  const documents = (consignment: string) =>
    store.construct(queries.bind('views/documents-of-consignment', { consignment: iri(consignment) }));
  if (activityLog === store) {
    return (consignment, events) =>
      events ? store.construct(queries.bind('views/consignment-metadata', { consignment: iri(consignment) })) : documents(consignment);
  }
  // The events' triples as the rows of a SELECT, read from its TSV answer (triplesFromTsv).
  const systemEvents = async (consignment: string): Promise<Quad[]> => {
    const query = queries.bind('views/system-events-of-consignment', { consignment: iri(consignment) });
    return (
      triplesFromTsv(await activityLog.queryRaw(query, undefined, 'text/tab-separated-values')) ??
      (await activityLog.select(query)).map((row) =>
        DataFactory.quad(row.get('s') as Quad_Subject, row.get('p') as Quad_Predicate, row.get('o') as Quad_Object),
      )
    );
  };
  return async (consignment, events) => {
    if (!events) return documents(consignment);
    const [records, eventTriples] = await Promise.all([documents(consignment), systemEvents(consignment)]);
    return records.concat(eventTriples);
  };
}
