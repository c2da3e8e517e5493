import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { QueryBank } from '../../../core/queries/query-bank.js';
import type { Visibility } from '../../../core/policy/visibility.js';
import { principalOf } from '../authenticate.js';
import { SPARQL_PATH } from '../routes/sparql.js';
import { packageDir, staticFiles } from './assets.js';
import { PAGE_SECURITY_HEADERS } from './html.js';
import { pageAuthenticate } from './console/page-auth.js';
import { exampleQueries } from './sparql-examples.js';
import { sparqlPage } from './sparql-page.js';

export interface SparqlPageDeps {
  authenticate: RequestHandler;
  visibility: Visibility;
  queries: QueryBank;
  baseUrl: string;
}

// Anything the endpoint itself answers; text/html comes last so that `*/*` (curl) keeps its answer.
const MACHINE_TYPES = [
  'application/sparql-results+json',
  'application/sparql-results+xml',
  'application/json',
  'application/xml',
  'text/turtle',
  'application/n-triples',
  'application/ld+json',
  'application/rdf+xml',
  'text/csv',
  'text/tab-separated-values',
];

/** A browser's page load: HTML preferred over every format the endpoint speaks. */
export function wantsPage(req: Request): boolean {
  return req.accepts([...MACHINE_TYPES, 'text/html']) === 'text/html';
}

/**
 * GET on the SPARQL endpoint from a browser: the YASGUI page, whose queries go back to the endpoint
 * with the session cookie. Everything else passes on to the endpoint untouched.
 */
export function sparqlPageRoutes(deps: SparqlPageDeps): Router {
  const router = Router();
  router.use('/assets/yasgui', staticFiles(`${packageDir('@zazuko/yasgui')}/build`));
  const onlyPages = (req: Request, res: Response, next: NextFunction) => {
    res.vary('Accept');
    next(wantsPage(req) ? undefined : 'route');
  };
  router.get(SPARQL_PATH, onlyPages, pageAuthenticate(deps.authenticate), async (req, res) => {
    const principal = principalOf(req);
    const [first] = await deps.visibility.list(principal, 0, 1);
    // The page queries the path on whatever host the browser reached, so the cookie and CSP's 'self' always fit.
    const page = sparqlPage(principal, {
      endpoint: SPARQL_PATH,
      shownEndpoint: `${deps.baseUrl}${SPARQL_PATH}`,
      examples: exampleQueries(deps.queries, first?.globalId),
    });
    res.set(PAGE_SECURITY_HEADERS).type('html').send(page.text);
  });
  return router;
}
