import { RDF_FORMATS } from '../../../core/views/rdf-formats.js';
import { GRAPH_TYPES, RESULT_TYPES } from '../../sparql-endpoint/formats.js';
import { error, rdfContent, ref, type ApiOperation, type ApiParameter } from '../api-operation.js';
import { SPARQL_PATH } from './sparql.js';

// Kept beside sparql.ts rather than in it: the protocol code changes often, what it answers rarely.

const RESULTS = {
  ...rdfContent([...new Set([...RESULT_TYPES, ...GRAPH_TYPES, ...RDF_FORMATS.map((format) => format.mediaType)])]),
  // application/json is the SPARQL JSON results' alias here (sparql-formats.ts).
  'application/sparql-results+json': ref('SparqlResults'),
  'application/json': ref('SparqlResults'),
};
const DATASET: ApiParameter[] = [
  {
    name: 'default-graph-uri',
    in: 'query',
    description: "Narrow the default graph to these of the caller's visible graphs",
    schema: { type: 'array', items: { type: 'string' } },
  },
  {
    name: 'named-graph-uri',
    in: 'query',
    description: "Narrow the named graphs to these of the caller's visible graphs",
    schema: { type: 'array', items: { type: 'string' } },
  },
];
const RESULTS_ANSWER = {
  description:
    'SELECT/ASK results (SPARQL JSON, XML, CSV, TSV) or CONSTRUCT/DESCRIBE graphs (Turtle, N-Triples, N-Quads, JSON-LD, RDF/XML) by Accept',
  content: RESULTS,
};
const ANSWERS: ApiOperation['responses'] = {
  200: RESULTS_ANSWER,
  400: error('Not valid SPARQL, or a SERVICE clause, or a query given twice'),
  403: error('SPARQL Update is refused: publish through the inbox'),
  406: error('No result format the Accept header allows'),
  413: error('The query is longer than DATASPACE_SPARQL_MAX_QUERY_BYTES'),
  422: error('The answer would be larger than DATASPACE_SPARQL_MAX_RESULTS'),
  503: error('The query ran past DATASPACE_SPARQL_TIMEOUT_MS, or the engine is busy'),
};

export const sparqlOperations: ApiOperation[] = [
  {
    method: 'get',
    path: SPARQL_PATH,
    operationId: 'sparqlGet',
    tag: 'SPARQL',
    authenticated: true,
    summary:
      "SPARQL 1.1 Protocol query over the caller's visible graphs; without a query, the service description (or, for a browser, the query page)",
    description:
      'A browser that asks for text/html gets the YASGUI query page, which sends its queries here with the signed-in session cookie.',
    parameters: [{ name: 'query', in: 'query', description: 'The SPARQL query', schema: { type: 'string' } }, ...DATASET],
    responses: { ...ANSWERS, 200: { ...RESULTS_ANSWER, content: { ...RESULTS, 'text/html': { type: 'string' } } } },
  },
  {
    method: 'post',
    path: SPARQL_PATH,
    operationId: 'sparqlPost',
    tag: 'SPARQL',
    authenticated: true,
    summary: 'SPARQL 1.1 Protocol query as a form or an application/sparql-query body',
    parameters: DATASET,
    requestBody: {
      required: true,
      content: {
        'application/sparql-query': { type: 'string' },
        'application/x-www-form-urlencoded': {
          type: 'object',
          required: ['query'],
          properties: {
            query: { type: 'string' },
            'default-graph-uri': { type: 'array', items: { type: 'string' } },
            'named-graph-uri': { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
    responses: { ...ANSWERS, 415: error('Neither a form nor an application/sparql-query body') },
  },
];
