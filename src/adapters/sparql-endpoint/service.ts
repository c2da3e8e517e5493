import oxigraph from 'oxigraph';
import type { Principal } from '../../core/auth/principal.js';
import { BadRequest, Forbidden, HttpError, NotAcceptable, PayloadTooLarge, QueryTimeout, ServiceUnavailable } from '../../core/errors.js';
import type { SparqlConfig } from './config.js';
import { EngineBusy, QueryTimedOut, type RequestedDataset, type SparqlEngine } from './engine.js';
import { askTable, BOOLEAN_TYPES, countRows, countTriples, engineFormat, graphFallback, offeredTypes, RESULT_TYPES } from './formats.js';
import { analyseQuery, QueryRefused, type AnalysedQuery } from './query.js';
import { QueryLimitExceeded } from './guard.js';
import { ParseFailed, ParserBusy, type QueryParser } from './parser/parser.js';

/** A query as the protocol delivered it, with the graphs named by default-graph-uri / named-graph-uri. */
export interface ProtocolQuery {
  query: string;
  defaultGraphUris: string[];
  namedGraphUris: string[];
}

export interface SparqlAnswer {
  contentType: string;
  body: string;
}

export interface SparqlServiceDeps {
  engine: SparqlEngine;
  limits: SparqlConfig;
  /** Checks and parses queries off the event loop; absent: on the calling thread (tests of pieces). */
  parser?: QueryParser;
}

/** The dataset the request names: the protocol's graph parameters, else the query's FROM / FROM NAMED. */
export function requestedDataset(request: ProtocolQuery, analysed: AnalysedQuery): RequestedDataset | undefined {
  if (request.defaultGraphUris.length > 0 || request.namedGraphUris.length > 0)
    return { default: request.defaultGraphUris, named: request.namedGraphUris };
  return analysed.from;
}

/** SPARQL 1.1 Query over the caller's visible graphs, with a time limit and a result-size limit. */
export class SparqlService {
  constructor(private readonly deps: SparqlServiceDeps) {}

  async answer(
    principal: Principal,
    request: ProtocolQuery,
    negotiate: (offered: readonly string[]) => string | false,
  ): Promise<SparqlAnswer> {
    const { limits, engine } = this.deps;
    const analysed = await this.analyse(principal, request.query);
    const offered = offeredTypes(analysed.form);
    const mediaType =
      (analysed.form === 'ASK' && negotiate(BOOLEAN_TYPES)) ||
      negotiate(offered) ||
      graphFallback(analysed.form, negotiate(RESULT_TYPES) !== false);
    if (!mediaType) throw new NotAcceptable(`A ${analysed.form} query is answered as ${offered.join(', ')}`);
    const graphResult = analysed.form === 'CONSTRUCT' || analysed.form === 'DESCRIBE';
    const format = graphResult ? 'application/n-triples' : engineFormat(mediaType);
    let text: string;
    try {
      text = await engine.run(
        { query: analysed.text, format, principal, requested: requestedDataset(request, analysed) },
        limits.timeoutMs,
      );
    } catch (error) {
      if (error instanceof EngineBusy) {
        throw new ServiceUnavailable(`${error.message}; retry shortly`, 1);
      }
      if (error instanceof QueryTimedOut) {
        throw new QueryTimeout(`The query was stopped after the time limit of ${limits.timeoutMs} ms; narrow it or add a LIMIT`);
      }
      throw new BadRequest(`The query could not be evaluated: ${(error as Error).message}`);
    }
    if (analysed.form === 'ASK') {
      return {
        contentType: mediaType,
        body: format === 'text/csv' || format === 'text/tab-separated-values' ? askTable(text, format) : text,
      };
    }
    const count = graphResult ? countTriples(text) : countRows(text, format);
    if (count > limits.maxResults) {
      throw new HttpError(
        422,
        'ResultTooLarge',
        `The answer has more than ${limits.maxResults} ${graphResult ? 'triples' : 'rows'}, the limit of this endpoint; add a LIMIT or narrow the query`,
      );
    }
    return { contentType: mediaType, body: graphResult ? convertTriples(text, mediaType) : text };
  }

  private async analyse(principal: Principal, query: string): Promise<AnalysedQuery> {
    const { limits, parser } = this.deps;
    try {
      return parser
        ? await parser.analyse(principal.org.id, query, limits.maxResults + 1, limits)
        : analyseQuery(query, limits.maxResults + 1, limits);
    } catch (error) {
      if (error instanceof QueryRefused) throw error.reason === 'syntax' ? new BadRequest(error.message) : new Forbidden(error.message);
      if (error instanceof QueryLimitExceeded)
        throw error.limit === 'maxQueryBytes' ? new PayloadTooLarge(error.message) : new BadRequest(error.message);
      if (error instanceof ParseFailed) throw new BadRequest(error.message);
      if (error instanceof ParserBusy) throw new ServiceUnavailable(`${error.message}; retry shortly`, 1);
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.deps.parser?.close();
  }
}

/**
 * N-Triples from the engine in the negotiated RDF syntax. A graph answer has only the default graph,
 * so its N-Quads are its N-Triples and its TriG is its Turtle (each syntax a superset of the other).
 */
function convertTriples(ntriples: string, mediaType: string): string {
  if (mediaType === 'application/n-triples' || mediaType === 'application/n-quads') return ntriples;
  const store = new oxigraph.Store();
  store.load(ntriples, { format: 'application/n-triples' });
  return store.dump({ format: mediaType === 'application/trig' ? 'text/turtle' : mediaType, from_graph_name: oxigraph.defaultGraph() });
}
