import type { ServerProfile } from './server-profile.js';

/** Where the SPARQL server is and how to reach it (DATASPACE_SPARQL_*, read by store-config.ts). */
export interface SparqlStoreConfig {
  queryUrl: string;
  updateUrl: string;
  /** HTTP Basic credentials, when the server wants them. */
  user: string | undefined;
  password: string | undefined;
  /** A request still unanswered after this long fails (the inbox answers 500, nothing half-written). */
  timeoutMs: number;
  /** The server's caps and term forms (absent: Virtuoso's, sparql-server/virtuoso.ts). */
  profile?: ServerProfile;
}
