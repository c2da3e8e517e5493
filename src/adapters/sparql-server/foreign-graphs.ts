import type { Logger } from '../../core/logger.js';
import type { QueryBank } from '../../core/queries/query-bank.js';
import type { SparqlStore } from './sparql-store.js';

/**
 * On a shared SPARQL server with an account of the node's own (DATASPACE_SPARQL_USER), warns when the
 * account reads graphs that are not the node's: a dataset loaded after deploy/virtuoso-node-account.sql
 * made every other graph private stays open to the account (Virtuoso gives new graphs the account's
 * default rights) until the script runs again. Run once at start, in the background: on a large store
 * the scan takes a while, and the node serves meanwhile. Without an account (anonymous /sparql, a
 * development server) the node reads every graph anyway, and nothing is said.
 */
export function warnOfForeignGraphs(store: SparqlStore, account: string | undefined, queries: QueryBank, logger: Logger): void {
  if (account === undefined) return;
  store
    .select(queries.text('store/foreign-graphs'))
    .then((rows) => {
      const graphs = rows.map((row) => row.get('g')!.value);
      if (graphs.length === 0) logger.info("the node's SPARQL account reads only the node's graphs", { account });
      else
        logger.warn(
          "the node's SPARQL account reads graphs that are not the node's: run deploy/virtuoso-node-account.sql again to make them private",
          { account, graphs },
        );
    })
    .catch((error: unknown) => logger.warn('could not list the graphs the SPARQL account reads', { error: (error as Error).message }));
}
