import { svc } from '../rdf/namespaces.js';

/**
 * The metadata predicates the data-sharing (coverage) rule reads about a consignment record: who owns
 * it, its globalId (named by narrowed policies) and its route locations (named by location operators'
 * policies). Everything else of the rule is in the policies graph. A copy of the catalog that must
 * answer the rule (the SPARQL endpoint's engine threads) keeps these and drops the rest of the
 * metadata; a predicate the rule starts to read must be added here.
 */
export const COVERAGE_PREDICATES: readonly string[] = [svc('owner'), svc('globalId'), svc('routeLocation')];
