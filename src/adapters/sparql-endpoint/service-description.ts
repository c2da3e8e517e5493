import { DataFactory, Parser } from 'n3';
import type { Quad } from '@rdfjs/types';
import { RDF_TYPE, SVC, svc, UNECE, unece } from '../../core/rdf/namespaces.js';
import { NQuadsBuilder } from '../../core/rdf/nquads.js';
import type { SparqlConfig } from './config.js';

const SD = 'http://www.w3.org/ns/sparql-service-description#';
const FORMATS = 'http://www.w3.org/ns/formats/';
const RDFS_COMMENT = 'http://www.w3.org/2000/01/rdf-schema#comment';

const VOID = 'http://rdfs.org/ns/void#';

/** VoID counts of the caller's own dataset; absent for an anonymous reader, who may see no data. */
export interface DatasetCounts {
  graphs: number;
  triples: number;
  subjects: number;
}

const RESULT_FORMATS = [
  'SPARQL_Results_JSON',
  'SPARQL_Results_XML',
  'SPARQL_Results_CSV',
  'SPARQL_Results_TSV',
  'Turtle',
  'N-Triples',
  'N-Quads',
  'JSON-LD',
  'RDF_XML',
];

/**
 * The SPARQL 1.1 Service Description of the endpoint, answered to a GET without a query. The dataset
 * it describes is per caller: the default graph is the union of the graphs the caller may read.
 */
export function serviceDescription(endpoint: string, limits: SparqlConfig, counts?: DatasetCounts): Quad[] {
  const dataset = `${endpoint}#dataset`;
  const defaultGraph = `${endpoint}#default-graph`;
  // The builder's graph is dropped: the description is triples.
  const b = new NQuadsBuilder('urn:x:unused')
    .iri(endpoint, RDF_TYPE, `${SD}Service`)
    .iri(endpoint, `${SD}endpoint`, endpoint)
    .iri(endpoint, `${SD}supportedLanguage`, `${SD}SPARQL11Query`)
    .iri(endpoint, `${SD}feature`, `${SD}UnionDefaultGraph`)
    .iri(endpoint, `${SD}defaultDataset`, dataset)
    .iri(dataset, RDF_TYPE, `${SD}Dataset`)
    .iri(dataset, `${SD}defaultGraph`, defaultGraph)
    .iri(defaultGraph, RDF_TYPE, `${SD}Graph`)
    .literal(
      dataset,
      RDFS_COMMENT,
      'Per caller: the named graphs are the data graphs the caller may read under the data-sharing policies; the default graph is their union. FROM, FROM NAMED, default-graph-uri and named-graph-uri choose among those graphs only.',
    )
    .literal(endpoint, svc('queryTimeoutMs'), limits.timeoutMs)
    .literal(endpoint, svc('maxResults'), limits.maxResults)
    .literal(endpoint, svc('maxQueryBytes'), limits.maxQueryBytes);
  for (const format of RESULT_FORMATS) b.iri(endpoint, `${SD}resultFormat`, `${FORMATS}${format}`);
  // VoID: the dataset behind the endpoint, its vocabularies, and how it can be joined (svc:event,
  // unece:associatedDocument link a consignment to its events and documents).
  b.iri(dataset, RDF_TYPE, `${VOID}Dataset`)
    .iri(dataset, `${VOID}sparqlEndpoint`, endpoint)
    .iri(dataset, `${VOID}vocabulary`, UNECE)
    .iri(dataset, `${VOID}vocabulary`, SVC)
    .iri(dataset, `${VOID}property`, svc('event'))
    .iri(dataset, `${VOID}property`, unece('associatedDocument'));
  if (counts) {
    b.literal(dataset, `${VOID}triples`, counts.triples)
      .literal(dataset, `${VOID}distinctSubjects`, counts.subjects)
      .literal(dataset, svc('namedGraphs'), counts.graphs)
      .literal(dataset, RDFS_COMMENT, 'The counts are of the graphs the caller may read, and of nothing else.');
  }
  return new Parser({ format: 'N-Quads' }).parse(b.toString()).map((q) => DataFactory.quad(q.subject, q.predicate, q.object) as Quad);
}
