import type { StoreFence } from '../../core/ports/own-state.js';
import type { ServerProfile } from './server-profile.js';

// The fence is a port (core/ports/own-state.ts); also named here, where the lease's code has met it.
export type { StoreFence };

/** Where the SPARQL server is and how to reach it (DATASPACE_SPARQL_*, read by store-config.ts). */
export interface SparqlStoreConfig {
  queryUrl: string;
  updateUrl: string;
  /** HTTP Basic credentials, when the server wants them. */
  user: string | undefined;
  password: string | undefined;
  /** A request still unanswered after this long fails (the inbox answers 500, nothing half-written). */
  timeoutMs: number;
  /** How often the graphs the account reads that are not the node's are listed again (foreign-graphs.ts); 0: at start only. */
  foreignGraphsCheckMs?: number;
  /** The server's caps and term forms (absent: Virtuoso's, sparql-server/virtuoso.ts). */
  profile?: ServerProfile;
  /** A replica set's writer's lease (docs/replicas.md): every update is fenced on its epoch. */
  fence?: StoreFence;
}
