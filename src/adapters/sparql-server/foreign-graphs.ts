import type { Logger } from '../../core/logger.js';
import type { QueryBank } from '../../core/queries/query-bank.js';
import type { SparqlStore } from './sparql-store.js';
import type { SparqlStoreConfig } from './sparql-store-config.js';

/** Stops the check's timer (the store closes). */
export interface ForeignGraphsCheck {
  stop(): void;
}

/**
 * On a shared SPARQL server with an account of the node's own (DATASPACE_SPARQL_USER), warns when the
 * account reads graphs that are not the node's: a dataset loaded after deploy/virtuoso-node-account.sql
 * made every other graph private stays open to the account (Virtuoso gives new graphs the account's
 * default rights) until the script runs again. Run at start and again every `foreignGraphsCheckMs`
 * (DATASPACE_SPARQL_FOREIGN_GRAPHS_CHECK_MS), in the background: a dataset loaded while the node runs
 * is named without a restart; on a large store the scan takes a while, and the node serves meanwhile
 * (one scan at a time). Without an account (anonymous /sparql, a development server) the node reads
 * every graph anyway, and nothing is said.
 */
export function warnOfForeignGraphs(store: SparqlStore, config: SparqlStoreConfig, queries: QueryBank, logger: Logger): ForeignGraphsCheck {
  const account = config.user;
  if (account === undefined) return { stop: () => undefined };
  let first = true;
  let scanning = false;
  const check = () => {
    if (scanning) return;
    scanning = true;
    store
      .select(queries.text('store/foreign-graphs'))
      .then((rows) => {
        const graphs = rows.map((row) => row.get('g')!.value);
        // Said once at start; later scans speak only of graphs that should not be there.
        if (graphs.length === 0 && first) logger.info("the node's SPARQL account reads only the node's graphs", { account });
        else if (graphs.length > 0)
          logger.warn(
            "the node's SPARQL account reads graphs that are not the node's: run deploy/virtuoso-node-account.sql again to make them private",
            { account, graphs },
          );
      })
      .catch((error: unknown) => logger.warn('could not list the graphs the SPARQL account reads', { error: (error as Error).message }))
      .finally(() => {
        first = false;
        scanning = false;
      });
  };
  check();
  const every = config.foreignGraphsCheckMs ?? 0;
  if (every <= 0) return { stop: () => undefined };
  const timer = setInterval(check, every);
  // A check due is no reason to keep the process alive.
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
