import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { SparqlService, ProtocolQuery } from '../../sparql-endpoint/service.js';
import { serviceDescription, type DatasetCounts } from '../../sparql-endpoint/service-description.js';
import { TYPE_ALIASES } from '../../sparql-endpoint/formats.js';
import { RDF_FORMATS } from '../../../core/views/rdf-formats.js';
import type { QueryBank } from '../../../core/queries/query-bank.js';
import type { Principal } from '../../../core/auth/principal.js';
import { negotiate } from '../negotiate.js';
import { chooseOffer, sendRdf } from '../rdf-response.js';
import { SPARQL_LIMIT_VARIABLES, type SparqlConfig } from '../../sparql-endpoint/config.js';
import { principalOf } from '../authenticate.js';
import { BadRequest, Forbidden, HttpError, PayloadTooLarge, UnsupportedMediaType } from '../../../core/errors.js';

export const SPARQL_PATH = '/supply-chain/data-space/sparql';

export interface SparqlRouteDeps {
  authenticate: RequestHandler;
  sparql: SparqlService;
  limits: SparqlConfig;
  baseUrl: string;
  queries: QueryBank;
}

type Params = Record<string, unknown>;

function one(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new BadRequest(`${name} must be given once`);
  return value;
}

function many(params: Params, name: string): string[] {
  const value = params[name];
  if (value === undefined) return [];
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((v): v is string => typeof v === 'string')) throw new BadRequest(`${name} must be IRIs`);
  return values;
}

function refuseUpdate(params: Params): void {
  if (params.update !== undefined) throw new Forbidden('This endpoint is read-only: SPARQL Update is refused; publish through the inbox');
}

/** The query and dataset parameters of a SPARQL 1.1 Protocol request, from wherever it put them. */
function protocolQuery(req: Request): ProtocolQuery | undefined {
  const url = req.query as Params;
  refuseUpdate(url);
  if (req.method === 'GET' || req.method === 'HEAD') {
    const query = one(url, 'query');
    return query === undefined
      ? undefined
      : { query, defaultGraphUris: many(url, 'default-graph-uri'), namedGraphUris: many(url, 'named-graph-uri') };
  }
  if (req.is('application/sparql-update'))
    throw new Forbidden('This endpoint is read-only: SPARQL Update is refused; publish through the inbox');
  if (req.is('application/x-www-form-urlencoded')) {
    const form = (req.body ?? {}) as Params;
    refuseUpdate(form);
    if (url.query !== undefined) throw new BadRequest('Give the query in the body or in the URL, not both');
    const query = one(form, 'query');
    if (query === undefined) throw new BadRequest('The form has no query parameter');
    return { query, defaultGraphUris: many(form, 'default-graph-uri'), namedGraphUris: many(form, 'named-graph-uri') };
  }
  if (req.is('application/sparql-query')) {
    if (url.query !== undefined) throw new BadRequest('Give the query in the body or in the URL, not both');
    if (typeof req.body !== 'string' || req.body.trim() === '') throw new BadRequest('The body holds no query');
    return { query: req.body, defaultGraphUris: many(url, 'default-graph-uri'), namedGraphUris: many(url, 'named-graph-uri') };
  }
  throw new UnsupportedMediaType('Send the query as application/sparql-query or application/x-www-form-urlencoded, or with GET');
}

/** A body over the endpoint's limit is a query over DATASPACE_SPARQL_MAX_QUERY_BYTES, not over DATASPACE_BODY_LIMIT. */
function queryTooLarge(limits: SparqlConfig): ErrorRequestHandler {
  return (error: unknown, _req, _res, next) => {
    const tooLarge = (error as { type?: unknown } | undefined)?.type === 'entity.too.large';
    next(
      tooLarge
        ? new PayloadTooLarge(
            `The query is longer than the query-size limit of ${limits.maxQueryBytes} bytes (${SPARQL_LIMIT_VARIABLES.maxQueryBytes})`,
          )
        : error,
    );
  };
}

/**
 * The SPARQL 1.1 Protocol endpoint (query only) over the caller's visible graphs. It parses its own
 * bodies, so it is mounted before the JSON-only guard of the rest of the API.
 */
export function sparqlRoutes(deps: SparqlRouteDeps): Router {
  const router = Router();
  // Form encoding may triple a query's bytes; the query's own size is checked against its limit later.
  const limit = deps.limits.maxQueryBytes * 3 + 1024;
  const endpoint = `${deps.baseUrl}${SPARQL_PATH}`;

  /** VoID counts over the caller's own dataset, through the endpoint itself (so the same policies apply). */
  const counts = async (principal: Principal): Promise<DatasetCounts> => {
    const answer = await deps.sparql.answer(
      principal,
      { query: deps.queries.text('views/void-counts'), defaultGraphUris: [], namedGraphUris: [] },
      () => 'application/sparql-results+json',
    );
    const row = (JSON.parse(answer.body) as { results: { bindings: Record<string, { value: string }>[] } }).results.bindings[0] ?? {};
    const n = (name: string) => Number(row[name]?.value ?? 0);
    return { graphs: n('graphs'), triples: n('triples'), subjects: n('subjects') };
  };

  const handle = async (req: Request, res: Response) => {
    res.vary('Accept');
    const request = protocolQuery(req);
    if (!request) {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new BadRequest('No query given');
      // The description is public; a caller who authenticated also gets the VoID counts of its own dataset.
      const format = chooseOffer(req, res, RDF_FORMATS);
      await sendRdf(
        req,
        res,
        serviceDescription(endpoint, deps.limits, req.principal ? await counts(req.principal) : undefined),
        format,
        deps.baseUrl,
      );
      return;
    }
    const principal = principalOf(req);
    const offers = (offered: readonly string[]) => offered.map((mediaType) => ({ mediaType, aliases: TYPE_ALIASES[mediaType] ?? [] }));
    const answer = await deps.sparql.answer(
      principal,
      request,
      (offered) => negotiate(req.headers.accept, offers(offered))?.mediaType ?? false,
    );
    res.set('Content-Type', answer.contentType).send(answer.body);
  };

  /** The description needs no login: authenticate only when the request carries credentials or a query. */
  const authenticateUnlessDescription = (req: Request, res: Response, next: (error?: unknown) => void) => {
    const url = req.query as Params;
    const anonymous = req.headers.authorization === undefined && !(req.cookies as Record<string, unknown> | undefined)?.access_token;
    if ((req.method === 'GET' || req.method === 'HEAD') && url.query === undefined && url.update === undefined && anonymous) {
      next();
      return;
    }
    deps.authenticate(req, res, next);
  };

  router.get(SPARQL_PATH, authenticateUnlessDescription, handle);
  router.post(
    SPARQL_PATH,
    deps.authenticate,
    express.urlencoded({ extended: false, limit, parameterLimit: 100 }),
    express.text({ type: 'application/sparql-query', limit }),
    handle,
    queryTooLarge(deps.limits),
  );
  router.all(SPARQL_PATH, () => {
    throw new HttpError(405, 'MethodNotAllowed', 'The SPARQL endpoint answers GET, HEAD and POST', undefined, { Allow: 'GET, HEAD, POST' });
  });
  return router;
}
