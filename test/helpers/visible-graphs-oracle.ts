import { coverageBindings } from '../../src/core/policy/coverage-subject.js';
import { QueryBank } from '../../src/core/queries/query-bank.js';
import { USERS, type TestNode, type UserName } from './test-node.js';

/** What a caller sends to list the graphs its queries range over (the endpoint restricts it to them). */
export const GRAPHS_WITH_DATA = 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }';

/**
 * Every graph of the store that holds data, asked of the node's own store. Not GRAPHS_WITH_DATA: with
 * no dataset, Virtuoso 7 answers exactly that text from DB.DBA.SPARQL_SELECT_KNOWN_GRAPHS, which walks
 * its RDF_QUAD_GS index; that index keeps an entry for every graph the server ever held, deleted or
 * not, and every test node's start deletes the last one's graphs. After the first 36 files of the
 * HTTP suite it took 5–9 s a call (GROUP BY: 4 ms), enough to push a test past its minute
 * (docs/external-store.md).
 */
const STORE_GRAPHS_WITH_DATA = 'SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g';

const queries = new QueryBank();

/**
 * The graphs `user`'s SPARQL queries must range over: what policy/visible-graphs answers on the node's
 * own store, among the graphs that hold data. Sorted.
 */
export async function visibleGraphsWithData(node: TestNode, user: UserName): Promise<string[]> {
  const org = node.node.registry.organisation(node.node.users.organisationOf(USERS[user].email)!)!;
  const rows = await node.node.store.select(queries.bind('policy/visible-graphs', coverageBindings({ email: USERS[user].email, org })));
  const withData = new Set((await node.node.store.select(STORE_GRAPHS_WITH_DATA)).map((row) => row.get('g')!.value));
  return [...new Set(rows.map((row) => row.get('graph')!.value))].filter((g) => withData.has(g)).sort();
}
