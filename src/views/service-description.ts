import oxigraph from 'oxigraph';
import { RDF_TYPE, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import type { SparqlConfig } from './sparql-config.js';

const SD = 'http://www.w3.org/ns/sparql-service-description#';
const FORMATS = 'http://www.w3.org/ns/formats/';
const RDFS_COMMENT = 'http://www.w3.org/2000/01/rdf-schema#comment';

export const DESCRIPTION_TYPES = ['text/turtle', 'application/ld+json', 'application/n-triples', 'application/rdf+xml'] as const;

const RESULT_FORMATS = ['SPARQL_Results_JSON', 'SPARQL_Results_XML', 'SPARQL_Results_CSV', 'SPARQL_Results_TSV', 'Turtle', 'N-Triples', 'N-Quads', 'JSON-LD', 'RDF_XML'];

/**
 * The SPARQL 1.1 Service Description of the endpoint, answered to a GET without a query. The dataset
 * it describes is per caller: the default graph is the union of the graphs the caller may read.
 */
export function serviceDescription(endpoint: string, limits: SparqlConfig, mediaType: string): string {
  const dataset = `${endpoint}#dataset`;
  const defaultGraph = `${endpoint}#default-graph`;
  const b = new NQuadsBuilder('urn:x:unused')
    .iri(endpoint, RDF_TYPE, `${SD}Service`)
    .iri(endpoint, `${SD}endpoint`, endpoint)
    .iri(endpoint, `${SD}supportedLanguage`, `${SD}SPARQL11Query`)
    .iri(endpoint, `${SD}feature`, `${SD}UnionDefaultGraph`)
    .iri(endpoint, `${SD}defaultDataset`, dataset)
    .iri(dataset, RDF_TYPE, `${SD}Dataset`)
    .iri(dataset, `${SD}defaultGraph`, defaultGraph)
    .iri(defaultGraph, RDF_TYPE, `${SD}Graph`)
    .literal(dataset, RDFS_COMMENT, 'Per caller: the named graphs are the data graphs the caller may read under the data-sharing policies; the default graph is their union. FROM, FROM NAMED, default-graph-uri and named-graph-uri choose among those graphs only.')
    .literal(endpoint, svc('queryTimeoutMs'), limits.timeoutMs)
    .literal(endpoint, svc('maxResults'), limits.maxResults)
    .literal(endpoint, svc('maxQueryBytes'), limits.maxQueryBytes);
  for (const format of RESULT_FORMATS) b.iri(endpoint, `${SD}resultFormat`, `${FORMATS}${format}`);
  const store = new oxigraph.Store();
  store.load(b.toString(), { format: 'application/n-quads' });
  return store.dump({ format: mediaType, from_graph_name: oxigraph.namedNode('urn:x:unused') });
}
