import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { QueryBank } from '../../../core/queries/query-bank.js';
import { str } from '../../../core/queries/query-bank.js';
import { sparqlDir } from '../../../core/project-paths.js';

export interface ExampleQuery {
  title: string;
  query: string;
}

const EXAMPLES = 'examples';
// A consignment nobody has: keeps the example valid SPARQL before the caller can see any.
const NO_CONSIGNMENT = 'urn:uuid:00000000-0000-0000-0000-000000000000';

/** The example names (sparql/examples/*.rq), in file-name order. */
export function exampleNames(dir: string = sparqlDir): string[] {
  return readdirSync(join(dir, EXAMPLES))
    .filter((f) => f.endsWith('.rq'))
    .sort()
    .map((f) => `${EXAMPLES}/${f.slice(0, -3)}`);
}

/**
 * The SPARQL page's example queries, with `$globalId` bound (as an escaped literal, like every query
 * the node runs) to a consignment the caller can see, so "events of a consignment" answers at once.
 */
export function exampleQueries(queries: QueryBank, globalId: string | undefined): ExampleQuery[] {
  return exampleNames().map((name) => {
    const query = queries.bind(name, { globalId: str(globalId ?? NO_CONSIGNMENT) });
    const title = /^#\s*title:\s*(.+)$/m.exec(query)?.[1]!.trim() ?? name;
    // The title line is the tab's name; the query text keeps its explaining comments.
    return { title, query: query.replace(/^#\s*title:.*\n/m, '') };
  });
}
