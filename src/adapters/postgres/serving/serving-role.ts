import type { Express } from 'express';
import type { Clients } from '../../../core/accounts/clients.js';
import type { RevokedTokens } from '../../../core/accounts/revoked-tokens.js';
import type { Users } from '../../../core/accounts/users.js';
import type { NotificationEndpoints } from '../../../core/notify/endpoints.js';
import type { ChangeClock } from '../../../core/policy/change-clock.js';
import type { CoveragePolicies } from '../../../core/policy/coverage-policies.js';
import type { Registry } from '../../../core/registry/registry.js';
import type { ChangeFeed } from '../../../core/store/change-feed.js';
import type { QuadStore } from '../../../core/ports/quad-store.js';
import type { GraphJson } from '../../../core/views/graph-json.js';

/** What a serving role needs of a node it wraps: its change feed, and what it keeps in memory. */
export interface ServedParts {
  feed: ChangeFeed;
  clock: ChangeClock;
  graphJson: GraphJson;
  coverage: CoveragePolicies;
  registry: Registry;
  users: Users;
  clients: Clients;
  revoked: RevokedTokens;
  endpoints: NotificationEndpoints;
}

/**
 * How a replica of a set serves (docs/replicas.md): as the writer, recording its commits for the
 * others and stamping answers with their position; or as a follower, which reads, follows the
 * writer's commits, and forwards writes to the writer. createNode builds the same node for both; a
 * follower's skips every write at start and every background writer (signals, index catch-up).
 */
export interface ServingRole {
  readonly follower: boolean;
  /** The store as this role may use it: a follower's refuses commits. */
  store(inner: QuadStore): QuadStore;
  /** The app this replica serves around the node's own; starts following or recording. */
  serve(app: Express, parts: ServedParts): Promise<Express>;
  close(): Promise<void>;
}

/** The header a replica's answer gives its commit position in, and a read sends back to see that write. */
export const POSITION_HEADER = 'Dataspace-Position';

/** The header naming what the answering replica is: `writer` (it holds the lease) or `follower`. */
export const ROLE_HEADER = 'Dataspace-Replica';
