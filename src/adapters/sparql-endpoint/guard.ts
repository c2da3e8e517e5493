import { SPARQL_LIMIT_VARIABLES, type SparqlConfig } from './config.js';

/** The query breaks one of the endpoint's size limits; the message names the limit and its variable. */
export class QueryLimitExceeded extends Error {
  override readonly name = 'QueryLimitExceeded';
  constructor(
    readonly limit: 'maxQueryBytes' | 'maxDepth' | 'maxTriplePatterns',
    message: string,
  ) {
    super(message);
  }
}

export type GuardLimits = Pick<SparqlConfig, 'maxQueryBytes' | 'maxDepth' | 'maxTriplePatterns'>;

// SPARQL's IRIREF: anything else starting with '<' is the less-than operator.
const IRIREF = /<[^<>"{}|^`\\\u0000-\u0020]*>/y;
const OPENERS = new Set(['{', '(', '[']);
const CLOSERS = new Set(['}', ')', ']']);

/**
 * The deepest nesting of `{`, `(` and `[` in a query, skipping strings, IRIs and comments: one linear
 * pass, so a query nested thousands deep is refused before a parser (whose cost grows roughly with the
 * cube of the depth) or the engine (whose recursion overflows its WebAssembly stack) sees it.
 */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '#') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '"' || c === "'") {
      const long = text.startsWith(c.repeat(3), i);
      const quote = long ? c.repeat(3) : c;
      i += quote.length;
      while (i < n && !text.startsWith(quote, i)) i += text[i] === '\\' ? 2 : 1;
      i += quote.length;
    } else if (c === '<') {
      IRIREF.lastIndex = i;
      i = IRIREF.test(text) ? IRIREF.lastIndex : i + 1;
    } else {
      if (OPENERS.has(c)) deepest = Math.max(deepest, ++depth);
      else if (CLOSERS.has(c) && depth > 0) depth--;
      i++;
    }
  }
  return deepest;
}

/** Checks that need no parse: size and nesting. */
export function checkQueryText(text: string, limits: GuardLimits): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxQueryBytes) {
    throw new QueryLimitExceeded(
      'maxQueryBytes',
      `The query is ${bytes} bytes long, over the query-size limit of ${limits.maxQueryBytes} bytes (${SPARQL_LIMIT_VARIABLES.maxQueryBytes})`,
    );
  }
  const depth = nestingDepth(text);
  if (depth > limits.maxDepth) {
    throw new QueryLimitExceeded(
      'maxDepth',
      `The query nests groups, brackets or parentheses ${depth} levels deep, over the limit of ${limits.maxDepth} (${SPARQL_LIMIT_VARIABLES.maxDepth})`,
    );
  }
}

/** Triple patterns of a parsed query (sparqljs), wherever they are: BGPs, paths, templates, subqueries. */
export function countTriplePatterns(node: unknown): number {
  let count = 0;
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const item = stack.pop();
    if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
      continue;
    }
    if (typeof item !== 'object' || item === null) continue;
    const record = item as Record<string, unknown>;
    // A triple: {subject, predicate, object}; its predicate may itself be a path, counted as one.
    if ('subject' in record && 'predicate' in record && 'object' in record) {
      count++;
      continue;
    }
    for (const value of Object.values(record)) if (typeof value === 'object' && value !== null) stack.push(value);
  }
  return count;
}

export function checkTriplePatterns(parsed: unknown, limits: GuardLimits): void {
  const patterns = countTriplePatterns(parsed);
  if (patterns > limits.maxTriplePatterns) {
    throw new QueryLimitExceeded(
      'maxTriplePatterns',
      `The query has ${patterns} triple patterns, over the limit of ${limits.maxTriplePatterns} (${SPARQL_LIMIT_VARIABLES.maxTriplePatterns})`,
    );
  }
}
