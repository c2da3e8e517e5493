import sparqljs from 'sparqljs';
import { checkQueryText, checkTriplePatterns, type GuardLimits } from './guard.js';

export type QueryForm = 'SELECT' | 'ASK' | 'CONSTRUCT' | 'DESCRIBE';

/** Why a request cannot be run: SPARQL Update, not SPARQL at all, or a SERVICE call out of the dataset. */
export class QueryRefused extends Error {
  override readonly name = 'QueryRefused';
  constructor(
    readonly reason: 'update' | 'syntax' | 'service',
    message: string,
  ) {
    super(message);
  }
}

export interface AnalysedQuery {
  form: QueryForm;
  /** The text to run: the query as sent, or regenerated with its LIMIT capped. */
  text: string;
  /** FROM and FROM NAMED of the query, when it names a dataset. */
  from?: { default: string[]; named: string[] };
}

/**
 * Reads a query once: its form (for the result format), its own dataset clauses, and a LIMIT of at
 * most `maxSolutions` so the engine stops early instead of building a result it would refuse. With
 * `limits`, a query over the size, nesting or triple-pattern limits throws QueryLimitExceeded.
 */
export function analyseQuery(text: string, maxSolutions: number, limits?: GuardLimits): AnalysedQuery {
  // Size and nesting first, in one linear pass: the parser's cost grows with the cube of the depth.
  if (limits) checkQueryText(text, limits);
  let parsed: sparqljs.SparqlQuery;
  try {
    // A parser keeps the prefixes of what it parsed before, so each query gets its own.
    parsed = new sparqljs.Parser().parse(text);
  } catch (error) {
    const message = ((error as Error).message ?? '').split('\n').slice(0, 3).join(' ').trim();
    throw new QueryRefused('syntax', `The query is not valid SPARQL 1.1: ${message}`);
  }
  if (limits) checkTriplePatterns(parsed, limits);
  if (parsed.type === 'update') {
    throw new QueryRefused('update', 'This endpoint is read-only: SPARQL Update is refused; publish through the inbox');
  }
  if (usesService(parsed)) {
    throw new QueryRefused('service', 'SERVICE (federated query) is refused: queries run over the graphs you may read on this node only');
  }
  const form = parsed.queryType;
  const from =
    parsed.from && (parsed.from.default.length > 0 || parsed.from.named.length > 0)
      ? { default: parsed.from.default.map((n) => n.value), named: parsed.from.named.map((n) => n.value) }
      : undefined;
  // The typings leave LIMIT off CONSTRUCT, which the grammar and the parser both have.
  const solutions = parsed as { limit?: number };
  if (form === 'ASK' || (solutions.limit !== undefined && solutions.limit <= maxSolutions)) return { form, text, from };
  solutions.limit = maxSolutions;
  return { form, text: new sparqljs.Generator().stringify(parsed), from };
}

/** Whether any pattern, at any depth (subqueries, EXISTS, OPTIONAL...), is a SERVICE call. */
function usesService(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(usesService);
  if (typeof node !== 'object' || node === null) return false;
  if ((node as { type?: unknown }).type === 'service') return true;
  return Object.values(node).some(usesService);
}
