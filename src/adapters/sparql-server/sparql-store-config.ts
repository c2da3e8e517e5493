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
  /** A replica set's writer's lease (docs/replicas.md): every update is fenced on its epoch. */
  fence?: StoreFence;
}

/** What a replica set's writer's updates carry, and what it checks before it counts one applied. */
export interface StoreFence {
  /** Each update applies only while the store holds this epoch (sparql/store/fenced-*.rq). */
  readonly epoch: number;
  /** Whether the writer still holds its lease for certain: checked before each Update request is sent and after it is answered. */
  held(): boolean;
}
